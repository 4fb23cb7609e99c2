// agent-utility console: the Overview charts (uPlot) and the Playground (a form generated from a tool's
// input JSON Schema, a run on an operator key, the result rendered). Plain browser JavaScript, no build step.
(function () {
  'use strict';
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute('content') : '';

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else if (attrs[k] !== undefined && attrs[k] !== null && attrs[k] !== false) node.setAttribute(k, attrs[k] === true ? '' : String(attrs[k]));
    });
    (children || []).forEach(function (c) {
      if (c) node.appendChild(c);
    });
    return node;
  }

  // ---------- Overview ----------
  var PALETTE = ['#1f5fbf', '#c2410c', '#15803d', '#7c3aed', '#be123c', '#0e7490'];

  function drawChart(id, times, seriesByName, unit) {
    var target = document.getElementById(id);
    if (!target || !window.uPlot) return;
    var names = Object.keys(seriesByName);
    target.textContent = '';
    if (names.length === 0) {
      target.appendChild(el('p', { class: 'hint', text: 'No data in this window.' }));
      return;
    }
    var data = [times].concat(
      names.map(function (n) {
        return seriesByName[n];
      }),
    );
    var series = [{}].concat(
      names.map(function (n, i) {
        return {
          label: n,
          stroke: PALETTE[i % PALETTE.length],
          width: 2,
          spanGaps: false,
          points: { show: true, size: 6 },
          value: function (u, v) {
            return v === null || v === undefined ? '–' : v + (unit || '');
          },
        };
      }),
    );
    var width = Math.max(300, target.clientWidth || 500);
    new window.uPlot({ width: width, height: 200, series: series, axes: [{}, { size: 50 }], scales: { x: { time: true } } }, data, target);
  }

  function loadOverview() {
    if (!document.getElementById('chart-created')) return;
    fetch('/console/api/overview', { credentials: 'same-origin' })
      .then(function (r) {
        return r.json();
      })
      .then(function (s) {
        drawChart('chart-created', s.times, { tasks: s.created });
        drawChart('chart-queue', s.times, { pending: s.queueDepth });
        drawChart('chart-failures', s.times, s.failuresByTool);
        drawChart('chart-p50', s.times, s.p50ByTool, ' ms');
        drawChart('chart-p95', s.times, s.p95ByTool, ' ms');
        document.body.setAttribute('data-charts', 'ready');
      });
  }

  // ---------- Playground: the form ----------
  function typeOf(schema) {
    if (!schema) return 'json';
    if (Array.isArray(schema.enum)) return 'enum';
    var t = Array.isArray(schema.type)
      ? schema.type.filter(function (x) {
          return x !== 'null';
        })[0]
      : schema.type;
    if (t === 'array' && schema.items && (schema.items.type === 'string' || schema.items.type === 'number' || schema.items.type === 'integer')) return 'list';
    if (t === 'string' || t === 'number' || t === 'integer' || t === 'boolean') return t;
    return 'json';
  }

  function fieldFor(name, schema, required, example) {
    var id = 'pg-field-' + name;
    var kind = typeOf(schema);
    var has = example !== undefined;
    var hint = (schema && schema.description) || '';
    var input;
    if (kind === 'enum') {
      input = el('select', { id: id, name: name });
      if (!required) input.appendChild(el('option', { value: '', text: schema.default !== undefined ? '(default: ' + schema.default + ')' : '(none)' }));
      schema.enum.forEach(function (v) {
        input.appendChild(el('option', { value: String(v), text: String(v), selected: has && example === v }));
      });
    } else if (kind === 'boolean') {
      input = el('input', { id: id, name: name, type: 'checkbox', checked: has ? example === true : schema.default === true });
    } else if (kind === 'number' || kind === 'integer') {
      input = el('input', {
        id: id,
        name: name,
        type: 'number',
        step: kind === 'integer' ? '1' : 'any',
        min: schema.minimum,
        max: schema.maximum,
        placeholder: schema.default !== undefined ? 'default ' + schema.default : '',
      });
      if (has) input.value = String(example);
    } else if (kind === 'string' && !(schema.maxLength > 4096)) {
      input = el('input', { id: id, name: name, type: 'text', size: 60, placeholder: schema.default !== undefined ? 'default ' + schema.default : '' });
      if (has) input.value = String(example);
    } else {
      input = el('textarea', { id: id, name: name, rows: 4 });
      if (kind === 'list') hint += (hint ? ' ' : '') + '(one per line)';
      else if (kind === 'json') hint += (hint ? ' ' : '') + '(JSON)';
      if (has) input.value = kind === 'list' ? example.join('\n') : kind === 'json' ? JSON.stringify(example, null, 2) : String(example);
    }
    input.setAttribute('data-kind', kind);
    if (required) input.setAttribute('aria-required', 'true');
    var hintId = id + '-hint';
    if (hint) input.setAttribute('aria-describedby', hintId);
    var label = el('label', { for: id, text: name + (required ? ' (required)' : '') });
    var wrap = el('div', { class: 'field' }, [label, input, hint ? el('small', { id: hintId, text: hint }) : null]);
    if (kind === 'boolean') {
      wrap = el('div', { class: 'field' }, [
        el('label', { for: id }, [input, document.createTextNode(' ' + name)]),
        hint ? el('small', { id: hintId, text: hint }) : null,
      ]);
    }
    return wrap;
  }

  function readForm(fieldset) {
    var input = {};
    fieldset.querySelectorAll('[data-kind]').forEach(function (node) {
      var kind = node.getAttribute('data-kind');
      var name = node.getAttribute('name');
      if (kind === 'boolean') {
        if (node.checked) input[name] = true;
        return;
      }
      var v = node.value;
      if (v.trim() === '') return;
      if (kind === 'number' || kind === 'integer') input[name] = Number(v);
      else if (kind === 'list')
        input[name] = v
          .split('\n')
          .map(function (s) {
            return s.trim();
          })
          .filter(Boolean);
      else if (kind === 'json') {
        try {
          input[name] = JSON.parse(v);
        } catch {
          throw new Error(name + ': is not valid JSON.');
        }
      } else input[name] = v;
    });
    return input;
  }

  // ---------- Playground: rendering results ----------
  function walk(value, visit) {
    if (Array.isArray(value))
      value.forEach(function (v) {
        walk(v, visit);
      });
    else if (value && typeof value === 'object') {
      visit(value);
      Object.keys(value).forEach(function (k) {
        if (value[k] && typeof value[k] === 'object') walk(value[k], visit);
      });
    }
  }

  function pointsIn(result) {
    var pts = [];
    walk(result, function (o) {
      var lat = typeof o.lat === 'number' ? o.lat : typeof o.latitude === 'number' ? o.latitude : undefined;
      var lng = typeof o.lng === 'number' ? o.lng : typeof o.lon === 'number' ? o.lon : typeof o.longitude === 'number' ? o.longitude : undefined;
      if (lat !== undefined && lng !== undefined) pts.push({ lat: lat, lng: lng, label: o.name || o.display_name || o.label || o.city || '' });
    });
    return pts;
  }

  var SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs) {
    var n = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) {
      n.setAttribute(k, String(attrs[k]));
    });
    return n;
  }

  // Country outlines behind the plots (GET /console/assets/base-map.json, served from an npm package, so it
  // works offline), fetched once; a plot drawn before they arrive gets them when they do.
  var baseMapPromise = null;
  function withBaseMap(fn) {
    baseMapPromise =
      baseMapPromise ||
      fetch('/console/assets/base-map.json', { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) throw new Error('base map: ' + r.status);
        return r.json();
      });
    baseMapPromise.then(fn, function () {
      baseMapPromise = null; // the grid alone; asked again next time
    });
  }

  /** An equirectangular plot around the points on the country outlines, with a 10° (or 1°) graticule; no tiles, so it works offline. */
  function plotPoints(pts) {
    var minLat = Math.min.apply(
      null,
      pts.map(function (p) {
        return p.lat;
      }),
    );
    var maxLat = Math.max.apply(
      null,
      pts.map(function (p) {
        return p.lat;
      }),
    );
    var minLng = Math.min.apply(
      null,
      pts.map(function (p) {
        return p.lng;
      }),
    );
    var maxLng = Math.max.apply(
      null,
      pts.map(function (p) {
        return p.lng;
      }),
    );
    var span = Math.max(4, maxLat - minLat, maxLng - minLng) * 1.4;
    var cLat = (minLat + maxLat) / 2,
      cLng = (minLng + maxLng) / 2;
    var x0 = cLng - span,
      y0 = -(cLat + span / 2),
      w = span * 2,
      h = span;
    var root = svg('svg', { viewBox: x0 + ' ' + y0 + ' ' + w + ' ' + h, role: 'img', 'aria-label': 'Map of ' + pts.length + ' location(s)' });
    var step = span > 40 ? 10 : span > 8 ? 2 : 1;
    var sw = w / 600;
    for (var g = Math.ceil(x0 / step) * step; g <= x0 + w; g += step)
      root.appendChild(svg('line', { x1: g, x2: g, y1: y0, y2: y0 + h, stroke: '#c9d6e6', 'stroke-width': sw }));
    for (var k = Math.ceil(y0 / step) * step; k <= y0 + h; k += step)
      root.appendChild(svg('line', { y1: k, y2: k, x1: x0, x2: x0 + w, stroke: '#c9d6e6', 'stroke-width': sw }));
    var firstPoint = null;
    pts.forEach(function (p) {
      var c = svg('circle', { cx: p.lng, cy: -p.lat, r: w / 90, fill: '#c2410c', stroke: '#fff', 'stroke-width': sw * 2, class: 'point' });
      var t = svg('title', {});
      t.textContent = (p.label ? p.label + ': ' : '') + p.lat.toFixed(5) + ', ' + p.lng.toFixed(5);
      c.appendChild(t);
      root.appendChild(c);
      firstPoint = firstPoint || c;
    });
    var list = el(
      'ul',
      { class: 'plain' },
      pts.map(function (p) {
        return el('li', { text: (p.label ? p.label + ': ' : '') + p.lat.toFixed(5) + ', ' + p.lng.toFixed(5) });
      }),
    );
    var credit = el('small', { class: 'map-credit' });
    withBaseMap(function (m) {
      var outline = svg('path', { d: m.path, fill: 'none', stroke: '#7f8fa6', 'stroke-width': sw * 1.5, 'stroke-linejoin': 'round', class: 'base-map' });
      root.insertBefore(outline, firstPoint);
      credit.textContent = m.attribution;
    });
    return el('figure', { class: 'map' }, [root, el('figcaption', {}, [list, credit])]);
  }

  function markdownIn(result) {
    var found = null;
    walk(result, function (o) {
      if (found) return;
      Object.keys(o).forEach(function (k) {
        if (!found && /markdown/i.test(k) && typeof o[k] === 'string') found = o[k];
      });
    });
    return found;
  }

  function loadMarkdownIt() {
    if (window.markdownit) return Promise.resolve(window.markdownit);
    return new Promise(function (resolve, reject) {
      var s = el('script', { src: '/console/assets/vendor/markdown-it.min.js' });
      s.onload = function () {
        resolve(window.markdownit);
      };
      s.onerror = reject;
      document.head.appendChild(s);
    });
  }

  function renderResult(task, out) {
    out.textContent = '';
    if (task.status !== 'complete') {
      out.appendChild(el('p', { class: 'error', role: 'alert', text: task.error || 'The task ' + task.status + '.' }));
      return Promise.resolve();
    }
    var result = task.result;
    var shown = false;
    // Only the links the server verified (task.artifacts) are previewed; the PDF frame is sandboxed.
    (task.artifacts || []).forEach(function (o) {
      shown = true;
      if (o.content_type.indexOf('image/') === 0)
        out.appendChild(el('figure', {}, [el('img', { src: o.file_url, alt: 'Result image (' + o.content_type + ')', class: 'result-image' })]));
      else if (o.content_type === 'application/pdf') out.appendChild(el('iframe', { src: o.file_url, title: 'Result PDF', class: 'pdf', sandbox: '' }));
      else out.appendChild(el('p', {}, [el('a', { href: o.file_url, rel: 'noopener noreferrer', text: 'Download ' + o.content_type })]));
    });
    var pts = pointsIn(result);
    if (pts.length) {
      out.appendChild(plotPoints(pts));
      shown = true;
    }
    var md = markdownIn(result);
    if (md !== null) {
      shown = true;
      var box = el('div', { class: 'markdown' });
      out.appendChild(box);
      // html: false (the default) escapes raw HTML in the Markdown, so the page never runs the result's markup.
      return loadMarkdownIt().then(function (markdownit) {
        box.innerHTML = markdownit({ linkify: true }).render(md);
      });
    }
    if (!shown) out.appendChild(el('pre', { class: 'result-json', text: JSON.stringify(result, null, 2) }));
    return Promise.resolve();
  }

  function api(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: 'same-origin',
      headers: body ? { 'content-type': 'application/json', 'x-csrf-token': csrf } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) throw new Error(typeof j.error === 'string' ? j.error : 'HTTP ' + r.status);
        return j;
      });
    });
  }

  function waitForTask(id) {
    return api('GET', '/console/api/tasks/' + encodeURIComponent(id) + '?wait=20').then(function (t) {
      return t.status === 'complete' || t.status === 'failed' || t.status === 'cancelled' ? t : waitForTask(id);
    });
  }

  function setupPlayground() {
    var form = document.getElementById('playground');
    if (!form) return;
    var tools = JSON.parse(document.getElementById('tool-descriptors').textContent);
    var toolSelect = document.getElementById('pg-tool');
    var fieldset = document.getElementById('pg-fields');
    var desc = document.getElementById('pg-description');
    var output = document.getElementById('pg-output');
    var status = document.getElementById('pg-status');
    var rendered = document.getElementById('pg-rendered');
    var jsonBox = document.getElementById('pg-json');
    var runButton = document.getElementById('pg-run');

    // Bumped when the tool changes or a run starts: a result that arrives for an earlier run is not shown.
    var generation = 0;
    function clearOutput() {
      output.hidden = true;
      output.removeAttribute('data-status');
      rendered.textContent = '';
      jsonBox.textContent = '';
      status.textContent = '';
    }

    function showTool() {
      generation++;
      clearOutput();
      var tool = tools.filter(function (t) {
        return t.name === toolSelect.value;
      })[0];
      fieldset.querySelectorAll('.field').forEach(function (f) {
        f.remove();
      });
      if (!tool) return;
      desc.textContent = tool.description;
      var schema = tool.input_schema || {};
      var required = schema.required || [];
      var example = tool.example || {};
      Object.keys(schema.properties || {}).forEach(function (name) {
        fieldset.appendChild(fieldFor(name, schema.properties[name], required.indexOf(name) >= 0, example[name]));
      });
    }
    var fromHash = decodeURIComponent(location.hash.slice(1));
    if (
      fromHash &&
      tools.some(function (t) {
        return t.name === fromHash;
      })
    )
      toolSelect.value = fromHash;
    toolSelect.addEventListener('change', showTool);
    showTool();

    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var keyId = document.getElementById('pg-key').value;
      var mine = ++generation;
      var current = function () {
        return mine === generation;
      };
      clearOutput();
      output.hidden = false;
      var input;
      try {
        input = readForm(fieldset);
      } catch (e) {
        status.textContent = e.message;
        return;
      }
      status.textContent = 'Submitting…';
      runButton.disabled = true;
      api('POST', '/console/api/run', { tool: toolSelect.value, key_id: keyId, input: input })
        .then(function (task) {
          if (current()) status.textContent = 'Task ' + task.task_id + ' is ' + task.status + '…';
          return waitForTask(task.task_id);
        })
        .then(function (task) {
          if (!current()) return;
          jsonBox.textContent = JSON.stringify(task, null, 2);
          return renderResult(task, rendered).then(function () {
            status.textContent = 'Task ' + task.task_id + ' ' + task.status + '.';
            output.setAttribute('data-status', task.status);
          });
        })
        .catch(function (e) {
          if (!current()) return;
          status.textContent = e.message;
          output.setAttribute('data-status', 'error');
        })
        .finally(function () {
          runButton.disabled = false;
        });
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    loadOverview();
    setupPlayground();
  });
})();
