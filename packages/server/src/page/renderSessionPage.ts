import type { AssetOnWire } from '../records/AssetInfo.js';
import { groupedOnetimeCode } from '../session/onetimeCode.js';
import type { PlacementOnWire } from '../records/Placement.js';
import type { SessionDetail } from '../records/SessionDetail.js';
import { modelsBounds } from './modelsBounds.js';
import { placementOutOfView } from './placementOverlay.js';
import { previewCamera } from './previewCamera.js';

/** What the session page shows: the detail record, the one-time code, and the deep link as a QR code. */
export interface SessionPageData {
  detail: SessionDetail;
  onetimeCode: string;
  /** Whether the code was used already (then it is shown as used). */
  codeClaimed: boolean;
  /** Whether the code's own lifetime is over (then it is shown as expired; the session lives on). */
  codeExpired?: boolean;
  /** The deep link as an SVG QR code. */
  qrSvg: string;
  /** Where the page's own assets are served (`/s/assets`). */
  assets: string;
  now: number;
}

/**
 * model-viewer's start camera for the placement, or its own framing of the whole model (also when the placement is too far away to draw).
 */
function cameraAttributes(placement: PlacementOnWire, far: number | undefined): string {
  const camera = far === undefined ? previewCamera(placement) : undefined;
  if (!camera) return '';
  return ` camera-target="${camera.target.map((v) => `${v}m`).join(' ')}" camera-orbit="${camera.thetaDeg}deg ${camera.phiDeg}deg auto"`;
}

const PLACEMENT_NAMES: Record<PlacementOnWire['method'], string> = {
  by_plane: 'on a floor or table (by plane)',
  by_scan: 'at a door opening (by scan)',
  by_virtual_anchor: 'at a virtual anchor',
  by_refimage: 'at a printed reference image',
};

/**
 * The session page as HTML: a 3D preview of the first model with the placement drawn
 * (`<model-viewer>`, served by us), "View in AR" for iPhone and iPad (AR Quick Look, the package that
 * places itself) and Android (Scene Viewer, the model's GLB), the deep link as a QR code and as a
 * link, the one-time code, the expiry (counting down with the page's script; stated without it),
 * and each model's counts, sizes and warnings. Everything but the 3D preview is plain HTML.
 *
 * @example
 * ```ts
 * res.type('html').send(renderSessionPage({ detail, onetimeCode, codeClaimed, qrSvg, assets: '/s/assets', now: Date.now() }));
 * ```
 */
export function renderSessionPage(data: SessionPageData): string {
  const { detail, assets } = data;
  const first = detail.model_assets[0]!;
  const title = detail.model_assets.map((a) => a.source_name).join(', ');
  const quickLook = first.quick_look?.usdz_url ?? first.usdz_url;
  const preview = detail.preview_glb_url ?? first.glb_url;
  const expires = new Date(detail.expires_at);
  // Too far from the models to draw: said in words, and the preview frames the model alone.
  const far = placementOutOfView(detail.placement, modelsBounds(detail.model_assets));
  // A click on the preview names its element from the first model's records (an IFC's).
  const elements = first.element_records ? ` data-elements="/api/vision/v1/session/${attr(detail.session_id)}/elements/"` : '';
  const viewer = preview
    ? `<model-viewer id="preview" src="${attr(preview)}" ios-src="${attr(quickLook)}"${elements} ` +
      `ar ar-modes="quick-look"${cameraAttributes(detail.placement, far)} ` +
      `camera-controls touch-action="pan-y" shadow-intensity="1" alt="${attr(`${title}, with its placement drawn`)}"></model-viewer>`
    : '<p>No preview was made for this session.</p>';
  const warnings = detail.placement.warnings.map((w) => `<li>${text(w.message)}</li>`).join('');
  const placementWarnings = warnings ? `<ul class="warnings" id="placement-warnings">${warnings}</ul>` : '';
  const quickLookLink =
    `<a class="button" id="ar-quick-look" rel="ar" href="${attr(quickLook)}">` +
    `<img src="${assets}/ar-badge.svg" alt="" width="24" height="24">iPhone or iPad (AR Quick Look)</a>`;
  const sceneViewer = first.glb_url && sceneViewerIntent(first.glb_url, detail.page_url, first.source_name);
  const sceneViewerLink = sceneViewer
    ? `<a class="button" id="ar-scene-viewer" href="${attr(sceneViewer)}">Android (Scene Viewer)</a>`
    : '';
  const codeState = data.codeClaimed ? ' (used)' : data.codeExpired ? ' (expired; the link still works)' : '';
  const timeLeft = text(countdown(expires.getTime() - data.now));
  const expiresAt = text(
    expires
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC'),
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AR session · ${text(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}/session-page.css">
<script type="module" src="${assets}/model-viewer.min.js"></script>
<script type="module" src="${assets}/session-page.js"></script>
</head>
<body>
<main>
<header>
<h1>${text(title)}</h1>
<p>Placed ${text(PLACEMENT_NAMES[detail.placement.method])} · ${anchoringSentence(detail.placement)}</p>
</header>
<section class="preview" aria-label="3D preview">
${viewer}
<div class="storeys" id="storeys" role="group" aria-label="Storeys" hidden></div>
<aside class="element" id="element" aria-live="polite" hidden></aside>
${legendOrWhy(detail, far)}
${placementWarnings}
</section>
<section class="ar">
<h2>View in AR</h2>
<div class="ar-links">
${quickLookLink}
${sceneViewerLink}
</div>
</section>
<section class="session">
<h2>Open in the app</h2>
<div class="qr" id="qr" role="img" aria-label="QR code of the deep link">${data.qrSvg}</div>
<dl>
<dt>Deep link</dt><dd><a id="deeplink" href="${attr(detail.deeplink)}">${text(detail.deeplink)}</a></dd>
<dt>One-time code</dt><dd><span class="code" id="onetime-code">${text(groupedOnetimeCode(data.onetimeCode))}</span>${codeState}</dd>
<dt>Expires</dt><dd><time id="expires" datetime="${attr(detail.expires_at)}" data-countdown>${timeLeft}</time> (${expiresAt})</dd>
</dl>
</section>
<section class="models">
<h2>${detail.model_assets.length === 1 ? 'The model' : `The ${detail.model_assets.length} models`}</h2>
${detail.model_assets.map(modelBlock).join('\n')}
</section>
</main>
</body>
</html>
`;
}

/**
 * A page that says why there is no session to show: expired (410) or unknown (404).
 *
 * @example
 * ```ts
 * res.status(410).type('html').send(renderGonePage('This session has expired', 'It expired at …', '/s/assets'));
 * ```
 */
export function renderGonePage(heading: string, message: string, assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(heading)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}/session-page.css">
</head>
<body>
<main>
<section class="gone">
<h1>${text(heading)}</h1>
<p>${text(message)}</p>
</section>
</main>
</body>
</html>
`;
}

function modelBlock(a: AssetOnWire): string {
  const size = [0, 1, 2].map((k) => (a.bounds.max[k]! - a.bounds.min[k]!).toFixed(2)).join(' × ');
  const rows: Array<[string, string]> = [
    ['Format', `${a.format.toUpperCase()}${a.usdz_delivery === 'converted' ? '' : ` (USDZ ${a.usdz_delivery.replace('_', ' ')})`}`],
    ['Triangles', a.triangles.toLocaleString('en-US')],
    [
      'Mesh nodes',
      `${a.mesh_nodes.toLocaleString('en-US')} (${a.draw_calls.toLocaleString('en-US')} ` +
        `draw calls, from ${a.elements.toLocaleString('en-US')} elements)`,
    ],
    ['Size', `${size} m`],
    ['Uploaded', megabytes(a.source_bytes)],
    ...arBudgetRow(a),
  ];
  const links = [
    `<a href="${attr(a.usdz_url)}">USDZ</a> (${megabytes(a.usdz_bytes)})`,
    ...(a.quick_look && a.quick_look.usdz_url !== a.usdz_url
      ? [
          `<a href="${attr(a.quick_look.usdz_url)}">USDZ for AR Quick ` +
            `Look</a>${a.quick_look.bytes === null ? '' : ` (${megabytes(a.quick_look.bytes)})`}`,
        ]
      : []),
    ...(a.glb_url && a.glb_bytes !== null ? [`<a href="${attr(a.glb_url)}">GLB</a> (${megabytes(a.glb_bytes)})`] : []),
    ...(a.reality_url ? [`<a href="${attr(a.reality_url)}">Reality</a>`] : []),
  ];
  return `<div class="model">
<h3>${text(a.source_name)}</h3>
<dl>
${rows.map(([k, v]) => `<dt>${text(k)}</dt><dd>${text(v)}</dd>`).join('\n')}
<dt>Files</dt><dd>${links.join(' · ')}</dd>
${partsRow(a)}</dl>
${a.warnings.length ? `<ul class="warnings">${a.warnings.map((w) => `<li>${text(w.message)}</li>`).join('')}</ul>` : ''}
</div>`;
}

/**
 * A model over the AR budget's parts, in a row: each storey (its elevation) and cell a link to its
 * USDZ, the one the placement ties to the room first; all of them as one zip. Empty without parts.
 */
function partsRow(a: AssetOnWire): string {
  if (!a.parts) return '';
  const items = a.parts.items.map((p) => {
    const elevation = p.storey?.elevation_m == null ? '' : ` (${p.storey.elevation_m} m)`;
    const first = p.index === a.parts?.at_placement ? ' — where the placement is' : '';
    return `<li><a href="${attr(p.usdz_url)}">${text(p.name)}</a>${text(elevation)}: ${text(
      `${p.triangles.toLocaleString('en-US')} triangles, ${megabytes(p.usdz_bytes)}${first}`,
    )}</li>`;
  });
  return (
    `<dt>Parts</dt><dd>${a.parts.items.length} to load where you stand, each within the AR budget ` +
    `(<a href="${attr(a.parts.zip_url)}">all as one zip</a>, ${megabytes(a.parts.zip_bytes)})` +
    `<ul class="parts">${items.join('')}</ul></dd>\n`
  );
}

/**
 * What the AR budget did to a model, in a row, when it did anything: the counts, then how far the
 * building's own elements moved apart from the clutter (furniture, MEP, details), and how much of
 * the clutter stands as boxes or was left out; a person reads there what is missing.
 */
function arBudgetRow(a: AssetOnWire): Array<[string, string]> {
  const b = a.ar_budget;
  if (!b || b.steps.length === 0) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  const counts =
    `${n(b.source.triangles)} → ${n(b.delivered.triangles)} triangles, ` +
    `${n(b.source.mesh_prims)} → ${n(b.delivered.mesh_prims)} meshes`;
  const categories = b.categories ?? [];
  if (categories.length === 0)
    return [
      ['Made lighter for AR', `${counts}${b.max_deviation_m > 0 ? `; surfaces within ${metres(b.max_deviation_m)} of the model` : ''}`],
    ];
  const envelope = categories.find((c) => c.category === 'envelope');
  const clutter = categories.filter((c) => c.category !== 'envelope' && c.source_triangles > 0);
  const parts = [counts];
  if (envelope)
    parts.push(
      envelope.max_deviation_m > 0
        ? `the building itself (walls, slabs, roofs, openings, structure) within ${metres(envelope.max_deviation_m)} of the model`
        : 'the building itself (walls, slabs, roofs, openings, structure) as modelled',
    );
  if (clutter.length) {
    const deviation = Math.max(...clutter.map((c) => c.max_deviation_m));
    const boxed = clutter.reduce((k, c) => k + c.proxied_elements, 0);
    const leftOut = clutter.reduce((k, c) => k + c.left_out.reduce((j, l) => j + l.elements, 0), 0);
    const what = clutter.map((c) => (c.category === 'mep' ? 'MEP' : c.category === 'other' ? 'other details' : c.category)).join(', ');
    parts.push(
      `${what} ` +
        (deviation > 0 ? `within ${metres(deviation)}` : 'as modelled') +
        (boxed ? `, ${n(boxed)} shown as boxes` : '') +
        (leftOut ? `, ${n(leftOut)} left out` : ''),
    );
  }
  return [['Made lighter for AR', parts.join('; ')]];
}

/** A distance as a person reads it: 2.0 mm, 4.2 cm, 1.25 m, 10,000 km. */
function metres(m: number): string {
  if (m >= 1000) return `${(m / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} km`;
  return m < 0.01 ? `${(m * 1000).toFixed(1)} mm` : m < 1 ? `${(m * 100).toFixed(1)} cm` : `${m.toFixed(2)} m`;
}

function anchoringSentence(placement: PlacementOnWire): string {
  const q = placement.quick_look;
  if (!q) return 'opens in AR Quick Look unanchored';
  if (q.anchoring === 'plane') return `AR Quick Look anchors it to a ${q.alignment} plane`;
  if (q.anchoring === 'image') return `AR Quick Look anchors it to the printed image (${(q.physical_width * 100).toFixed(1)} cm wide)`;
  return `AR Quick Look opens it unanchored: ${text(q.reason)}`;
}

/** What the preview's marks mean; or, when the placement is too far from the model to draw, where it is. */
function legendOrWhy(detail: SessionDetail, far: number | undefined): string {
  if (far !== undefined) {
    const what =
      detail.placement.method === 'by_scan' ? 'door opening' : detail.placement.method === 'by_refimage' ? 'reference image' : 'anchor';
    return (
      `<p class="legend" id="placement-far">The ${what} lies ${text(metres(far))} outside the model, too far to draw beside it: ` +
      'the preview shows the model alone, and AR places it there.</p>'
    );
  }
  return `<p class="legend">The placement drawn on the model:
<span><i class="swatch x"></i>x</span>
<span><i class="swatch y"></i>y (up, or the anchor's normal)</span>
<span><i class="swatch z"></i>z</span>${legendOf(detail.placement)}</p>`;
}

function legendOf(placement: PlacementOnWire): string {
  const item = (swatch: string, label: string) => `\n<span><i class="swatch ${swatch}"></i>${label}</span>`;
  switch (placement.method) {
    case 'by_plane':
      return item('footprint', 'footprint');
    case 'by_scan':
      return item('door', 'door opening and wall normal');
    case 'by_virtual_anchor':
      return item('anchor', 'virtual anchor');
    case 'by_refimage':
      return item('anchor', 'reference image');
  }
}

/** Google's documented intent for Scene Viewer in AR, falling back to this page. */
function sceneViewerIntent(glb: string, page: string, title: string): string {
  const query = `file=${encodeURIComponent(glb)}&mode=ar_preferred&title=${encodeURIComponent(title)}`;
  const intent = 'scheme=https;package=com.google.ar.core;action=android.intent.action.VIEW';
  return `intent://arvr.google.com/scene-viewer/1.0?${query}#Intent;${intent};S.browser_fallback_url=${encodeURIComponent(page)};end;`;
}

/** "in 23 h 59 min": the expiry as the page first shows it (its script keeps it current). */
export function countdown(ms: number): string {
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor(minutes / 60) % 24, minutes % 60];
  return `in ${d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min` : 'less than a minute'}`;
}

function megabytes(bytes: number): string {
  return bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Text in HTML: the five characters that could end it escaped. */
function text(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function attr(s: string): string {
  return text(s);
}
