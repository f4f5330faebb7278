import { chartAsset, faviconAsset, webAsset, type WebAsset } from '../web/web-assets.js';
import { COPY_BUTTON_SCRIPT } from '../web/web-script.js';
import { WEB_STYLE } from '../web/web-style.js';

// The panel's files: its stylesheet, its small script (copy button, charts, the places choice), Chart.js
// (installed from npm, served by the service) and the tab's icon in the panel's colour. Every page works
// without the script; it only adds the copy button's convenience and draws the charts beside the tables
// that hold the figures.

const SCRIPT = `
(function () {
  var chosen = document.getElementById('places-chosen');
  if (chosen) {
    var sync = function () {
      document.querySelectorAll('input[name=place]').forEach(function (box) { box.disabled = !chosen.checked; });
    };
    document.querySelectorAll('input[name=places]').forEach(function (radio) { radio.addEventListener('change', sync); });
    sync();
  }
  document.querySelectorAll('canvas[data-chart]').forEach(function (canvas) {
    if (typeof Chart === 'undefined') return;
    var data = JSON.parse(document.getElementById(canvas.getAttribute('data-chart')).textContent);
    var lang = document.documentElement.lang || 'pt-BR';
    // One bar line of about 1.6rem each, so that a long list of brands stays readable.
    canvas.parentNode.style.height = Math.max(12, data.values.length * 1.6 + 3) + 'rem';
    new Chart(canvas, {
      type: 'bar',
      data: { labels: data.labels, datasets: [{ label: data.title, data: data.values, backgroundColor: '#0b5cad' }] },
      options: {
        indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false,
        plugins: { legend: { display: false }, tooltip: { callbacks: { label: function (item) { return data.texts[item.dataIndex]; } } } },
        scales: { x: { ticks: { callback: function (value) { return data.axis.replace('#', Number(value).toLocaleString(lang)); } } } }
      }
    });
  });
})();
`;

export interface PanelAssets {
  stylesheet: WebAsset;
  script: WebAsset;
  chart: WebAsset;
  icon: WebAsset;
}

let assets: PanelAssets | undefined;

/** The panel's files, built once per process on first use. */
export function panelAssets(): PanelAssets {
  assets ??= {
    stylesheet: webAsset('panel', 'css', 'text/css; charset=utf-8', [WEB_STYLE]),
    script: webAsset('panel', 'js', 'text/javascript; charset=utf-8', [COPY_BUTTON_SCRIPT, SCRIPT]),
    chart: chartAsset(),
    icon: faviconAsset('panel', '#0b5cad'),
  };
  return assets;
}
