#include <curl/curl.h>

// NB: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call; these take
// each kind of value an option has.

static inline CURLcode authflow_curl_long(CURL *curl, CURLoption option, long value) {
  return curl_easy_setopt(curl, option, value);
}

static inline CURLcode authflow_curl_size(CURL *curl, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(curl, option, value);
}

static inline CURLcode authflow_curl_text(CURL *curl, CURLoption option, const char *value) {
  return curl_easy_setopt(curl, option, value);
}

static inline CURLcode authflow_curl_pointer(CURL *curl, CURLoption option, void *value) {
  return curl_easy_setopt(curl, option, value);
}

static inline CURLcode authflow_curl_list(CURL *curl, CURLoption option,
                                          struct curl_slist *value) {
  return curl_easy_setopt(curl, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode authflow_curl_receiver(CURL *curl, CURLoption option,
                                              curl_write_callback value) {
  return curl_easy_setopt(curl, option, value);
}

/// The status of the last response.
static inline long authflow_curl_status(CURL *curl) {
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  return status;
}
