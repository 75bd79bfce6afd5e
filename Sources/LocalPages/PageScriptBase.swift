/// What both local pages' scripts begin with: strict mode, `$` for an element by id, and `el`,
/// which builds an element from its attributes and children, text always as text content,
/// never as markup.
public enum PageScriptBase {
  /// The start of `app.js`; each page's own script follows it.
  public static let source = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);

    function el(tag, attrs = {}, ...children) {
      const node = document.createElement(tag);
      for (const [key, value] of Object.entries(attrs)) {
        if (value === false || value === null || value === undefined) continue;
        if (key === "text") node.textContent = value;
        else if (key === "class") node.className = value;
        else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
        else node.setAttribute(key, value === true ? "" : value);
      }
      for (const child of children) if (child !== null && child !== undefined) node.append(child);
      return node;
    }

    """#
}
