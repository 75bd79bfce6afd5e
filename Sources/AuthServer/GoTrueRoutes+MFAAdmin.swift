import GoTrue
import GoTrueEngine
import HTTPServer

/// The admin API's factor routes (`api/admin.go`), for the service-role key.
extension GoTrueRoutes {
  static let mfaAdmin: [Route] = [
    Route(.adminListFactors, listFactors), Route(.adminUpdateFactor, updateFactor),
    Route(.adminDeleteFactor, deleteFactor),
  ]

  /// `GET /admin/users/{id}/factors`: a JSON array of the user's factors.
  @Sendable static func listFactors(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    return Answer.json(try context.engine.factors(ofUser: context.parameter("user_id")))
  }

  /// `PUT /admin/users/{id}/factors/{factor_id}` `{friendly_name?, phone?}`: the factor.
  @Sendable static func updateFactor(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let (userID, factorID) = (context.parameter("user_id"), context.parameter("factor_id"))
    // GoTrue finds the user and the factor before it reads the body.
    _ = try context.engine.factor(ofUser: userID, id: factorID)
    let body = try context.body().decode(GoTrueAdminUpdateFactorBody.self)
    return Answer.json(
      try context.engine.updateFactor(
        ofUser: userID, factorID: factorID, friendlyName: body.friendlyName ?? ""))
  }

  /// `DELETE /admin/users/{id}/factors/{factor_id}`: the factor as it was.
  @Sendable static func deleteFactor(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    return Answer.json(
      try context.engine.deleteFactor(
        ofUser: context.parameter("user_id"), factorID: context.parameter("factor_id")))
  }
}
