/** One series of points on a chart. */
export interface Series {
  name: string;
  colour: string;
  points: ReadonlyArray<{ x: number; y: number; label?: string }>;
}

/** Options of {@link scatterSvg}. */
export interface ScatterOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  width: number;
  height: number;
}

const DEFAULTS: Omit<ScatterOptions, 'title' | 'xLabel' | 'yLabel'> = { width: 640, height: 400 };

/**
 * A log–log scatter chart as a standalone SVG string (no dependencies, renders on GitHub and in any
 * browser): one colour per series, a legend, decade grid lines.
 */
export function scatterSvg(
  series: readonly Series[],
  options: Pick<ScatterOptions, 'title' | 'xLabel' | 'yLabel'> & Partial<ScatterOptions>,
): string {
  const { width, height, title, xLabel, yLabel } = { ...DEFAULTS, ...options };
  const pad = { left: 70, right: 20, top: 40, bottom: 50 };
  const all = series.flatMap((s) => s.points).filter((p) => p.x > 0 && p.y > 0);
  const decade = (v: number, up: boolean) => 10 ** (up ? Math.ceil(Math.log10(v)) : Math.floor(Math.log10(v)));
  const x0 = decade(Math.min(...all.map((p) => p.x)), false),
    x1 = decade(Math.max(...all.map((p) => p.x)), true);
  const y0 = decade(Math.min(...all.map((p) => p.y)), false),
    y1 = decade(Math.max(...all.map((p) => p.y)), true);
  const sx = (x: number) =>
    pad.left + ((Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0) || 1)) * (width - pad.left - pad.right);
  const sy = (y: number) =>
    height - pad.bottom - ((Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0) || 1)) * (height - pad.top - pad.bottom);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="14">${esc(title)}</text>`,
  ];
  for (let v = x0; v <= x1 * 1.0001; v *= 10) {
    out.push(
      `<line x1="${sx(v)}" y1="${pad.top}" x2="${sx(v)}" y2="${height - pad.bottom}" stroke="#ddd"/>`,
      `<text x="${sx(v)}" y="${height - pad.bottom + 16}" ` +
        `text-anchor="middle">${v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : v}</text>`,
    );
  }
  for (let v = y0; v <= y1 * 1.0001; v *= 10) {
    out.push(
      `<line x1="${pad.left}" y1="${sy(v)}" x2="${width - pad.right}" y2="${sy(v)}" stroke="#ddd"/>`,
      `<text x="${pad.left - 6}" y="${sy(v) + 4}" text-anchor="end">${v}</text>`,
    );
  }
  out.push(
    `<text x="${width / 2}" y="${height - 12}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text transform="translate(16 ${height / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    for (const p of s.points.filter((q) => q.x > 0 && q.y > 0)) {
      out.push(
        `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="4" fill="${s.colour}" ` +
          `fill-opacity="0.8">${p.label ? `<title>${esc(p.label)}</title>` : ''}</circle>`,
      );
    }
    out.push(
      `<rect x="${pad.left + 10}" y="${pad.top + 6 + i * 18}" width="10" height="10" fill="${s.colour}"/>`,
      `<text x="${pad.left + 26}" y="${pad.top + 15 + i * 18}">${esc(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
