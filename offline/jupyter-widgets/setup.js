// Glue between the book's pages and the Jupyter widgets HTML manager
// (written by tools/vendor_js.py; loaded after require.js, before embed-amd.js).
(function () {
  "use strict";
  // 1. Each widgets module (the manager, base, controls) finds its fonts
  //    relative to its own AMD module's address: map them all to this folder
  //    rather than to the page's folder.
  var here = new URL(".", document.currentScript.src).href.replace(/\/$/, "");
  window.require.config({paths: {"@jupyter-widgets": here, "@jupyter-widgets/html-manager/dist": here}});

  // 2. ipywidgets 8 typesets widget labels with MathJax 2's API
  //    (MathJax.Hub.Queue); the book runs MathJax 3, which has no Hub, so
  //    every label would throw. Give each MathJax object a Hub that asks
  //    MathJax 3 to typeset the element instead.
  var hub = {
    Queue: function (command) {
      var element = command && command[2], mathjax = window.MathJax;
      if (element && mathjax && mathjax.startup && mathjax.startup.promise && mathjax.typesetPromise) {
        mathjax.startup.promise = mathjax.startup.promise.then(function () {
          return mathjax.typesetPromise([element]);
        });
      }
    }
  };
  var current = window.MathJax;
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    enumerable: true,
    get: function () { return current; },
    set: function (value) {
      current = value;
      if (value && value.version && !value.Hub) { value.Hub = hub; }
    }
  });
})();
