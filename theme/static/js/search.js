// The search page: Pagefind's UI, loaded from the index that `make html` writes to /pagefind/.
// Without the index (a build by `pelican` alone) the page keeps its pointer to the archives.
(function () {
  "use strict";
  var box = document.getElementById("search");
  if (!box || !window.fetch) return;
  var bundle = new URL(box.dataset.bundle, document.baseURI).href;

  function load(tag, attributes) {
    return new Promise(function (resolve, reject) {
      var element = document.createElement(tag);
      Object.keys(attributes).forEach(function (name) { element[name] = attributes[name]; });
      element.onload = resolve;
      element.onerror = reject;
      document.head.appendChild(element);
    });
  }

  fetch(bundle + "pagefind-entry.json").then(function (response) {
    if (!response.ok) return;
    return Promise.all([
      load("link", { rel: "stylesheet", href: bundle + "pagefind-ui.css" }),
      load("script", { src: bundle + "pagefind-ui.js" }),
    ]).then(function () {
      var ui = new window.PagefindUI({
        element: "#search",
        bundlePath: bundle,
        showSubResults: true,
        showImages: false,
        translations: { placeholder: box.dataset.placeholder },
      });
      // Pagefind names its box by a title only; screen readers want a label.
      var input = box.querySelector("input");
      if (input) input.setAttribute("aria-label", box.dataset.placeholder);
      document.documentElement.classList.add("has-search");
      var query = new URLSearchParams(window.location.search).get("q");
      if (query) ui.triggerSearch(query);
    });
  }).catch(function () { /* no index on this copy of the site: the fallback text stays */ });
})();
