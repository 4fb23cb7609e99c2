// A tiny SVG line chart (no dependency): series of [x, y] points on shared axes, with a legend.
export function svgLines({ title, xLabel, yLabel, series, width = 640, height = 320 }) {
  const pad = { l: 56, r: 150, t: 28, b: 40 };
  const all = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map((p) => p[0]));
  const yMax = Math.max(1, ...all.map((p) => p[1])) * 1.1;
  const x = (v) => pad.l + (v / xMax) * (width - pad.l - pad.r);
  const y = (v) => height - pad.b - (v / yMax) * (height - pad.t - pad.b);
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#17becf', '#7f7f7f'];
  const esc = (s) => String(s).replace(/[<&>]/g, (c) => ({ '<': '&lt;', '&': '&amp;', '>': '&gt;' })[c]);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${pad.l}" y="16" font-size="13">${esc(title)}</text>`,
    `<line x1="${pad.l}" y1="${height - pad.b}" x2="${width - pad.r}" y2="${height - pad.b}" stroke="#333"/>`,
    `<line x1="${pad.l}" y1="${pad.t}" x2="${pad.l}" y2="${height - pad.b}" stroke="#333"/>`,
    ...ticks.map((f) => `<text x="${pad.l - 4}" y="${y(f * yMax) + 4}" text-anchor="end">${Math.round(f * yMax)}</text>`),
    ...ticks.map((f) => `<text x="${x(f * xMax)}" y="${height - pad.b + 14}" text-anchor="middle">${Math.round(f * xMax)}</text>`),
    `<text x="${(pad.l + width - pad.r) / 2}" y="${height - 6}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text x="12" y="${(pad.t + height - pad.b) / 2}" transform="rotate(-90 12 ${(pad.t + height - pad.b) / 2})" text-anchor="middle">${esc(yLabel)}</text>`,
  ];
  series.forEach((s, i) => {
    const c = colours[i % colours.length];
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${c}" stroke-width="1.5"/>`);
    parts.push(`<rect x="${width - pad.r + 10}" y="${pad.t + i * 16}" width="10" height="10" fill="${c}"/>`);
    parts.push(`<text x="${width - pad.r + 24}" y="${pad.t + i * 16 + 9}">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
