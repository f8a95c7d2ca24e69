'use strict';
document.querySelectorAll('.plotly-figure').forEach(function (el) {
  var spec = JSON.parse(document.getElementById(el.getAttribute('data-spec')).textContent);
  var config = Object.assign({ responsive: true, displaylogo: false }, spec.config || {});
  Plotly.newPlot(el, spec.data || [], spec.layout || {}, config);
});
