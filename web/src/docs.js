// SPDX-License-Identifier: MIT
// Renders openapi.yaml, which the daemon serves beside this page, with the
// Redoc standalone bundle (loaded by a classic script before this module).
// The theme names only local font families so nothing is fetched from
// elsewhere.

const fonts = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif';
const mono = 'ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace';

const root = document.getElementById('redoc');

function failed(message) {
  root.removeAttribute('aria-busy');
  root.textContent = '';
  const p = document.createElement('p');
  p.className = 'error';
  p.setAttribute('role', 'alert');
  p.textContent = message;
  root.append(p);
}

if (!window.Redoc) {
  failed('The Redoc bundle did not load.');
} else {
  window.Redoc.init('openapi.yaml', {
    hideDownloadButton: false,
    disableSearch: false,
    expandResponses: '200,202',
    jsonSampleExpandLevel: 3,
    pathInMiddlePanel: true,
    scrollYOffset: 'header.site',
    theme: {
      typography: {
        fontFamily: fonts,
        headings: { fontFamily: fonts },
        code: { fontFamily: mono },
      },
      sidebar: { width: '260px' },
    },
  }, root, (error) => {
    root.removeAttribute('aria-busy');
    if (error) failed(`The API reference could not be rendered: ${error.message || error}`);
  });
}
