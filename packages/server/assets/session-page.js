// The session page's script: the expiry counts down (the text works without it); the preview
// switches storeys and names what a click hits.
import { pick, readPickable } from './element-picking.js';
const units = [
  ['d', 86400],
  ['h', 3600],
  ['min', 60],
  ['s', 1],
];
function left(ms) {
  if (ms <= 0) return 'expired — reload the page';
  let s = Math.floor(ms / 1000);
  const parts = [];
  for (const [name, size] of units) {
    const n = Math.floor(s / size);
    s -= n * size;
    if (n > 0 || (parts.length > 0 && parts.length < 2)) parts.push(`${n} ${name}`);
    if (parts.length === 2) break;
  }
  return `in ${parts.join(' ') || 'less than a second'}`;
}
for (const el of document.querySelectorAll('time[data-countdown]')) {
  const at = Date.parse(el.getAttribute('datetime'));
  const tick = () => {
    el.textContent = left(at - Date.now());
  };
  tick();
  setInterval(tick, 1000);
}

// The preview: switch storeys (the preview GLB's storey variants) and name what a click hits
// (its element's record, from the session's elements endpoint).

const viewer = document.querySelector('model-viewer#preview');
const storeyBar = document.getElementById('storeys');
const panel = document.getElementById('element');

function showStoreys(variants) {
  if (!storeyBar || variants.length === 0) return;
  const buttons = [['All storeys', null], ...variants.map((v) => [v, v])].map(([label, variant]) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.variant = variant ?? '';
    b.setAttribute('aria-pressed', String(variant === null));
    b.addEventListener('click', () => {
      viewer.variantName = variant;
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === b));
    });
    return b;
  });
  storeyBar.replaceChildren(...buttons);
  storeyBar.hidden = false;
}

function row(list, term, value) {
  if (value === null || value === undefined || value === '') return;
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = String(value);
  list.append(dt, dd);
}

async function showElement(hit) {
  if (!panel) return;
  if (!hit) {
    panel.hidden = true;
    return;
  }
  const heading = document.createElement('h3');
  heading.textContent = hit.name || hit.ifcClass;
  const list = document.createElement('dl');
  row(list, 'Class', hit.ifcClass);
  row(list, 'GlobalId', hit.globalId);
  panel.replaceChildren(heading, list);
  panel.dataset.elementId = hit.id;
  panel.hidden = false;
  const base = viewer.dataset.elements;
  if (!base || !hit.id) return;
  const res = await fetch(base + encodeURIComponent(hit.id));
  if (!res.ok || panel.dataset.elementId !== hit.id) return;
  const record = await res.json();
  row(list, 'Storey', record.storey);
  row(list, 'Type', record.type && `${record.type.name} (${record.type.ifc_class})`);
  if (!record.global_id) row(list, 'Id', record.id);
  row(list, 'Materials', record.materials.join(', '));
  for (const [set, properties] of Object.entries(record.property_sets))
    for (const [name, value] of Object.entries(properties)) row(list, `${set}.${name}`, Array.isArray(value) ? value.join(', ') : value);
  panel.dataset.record = 'shown';
}

async function setUpPreview() {
  const variants = viewer.availableVariants || [];
  showStoreys(variants);
  if (!viewer.dataset.elements || !panel) return;
  const pickable = readPickable(new Uint8Array(await (await fetch(viewer.src)).arrayBuffer()));
  let down = null;
  viewer.addEventListener('pointerdown', (e) => {
    down = [e.clientX, e.clientY];
  });
  viewer.addEventListener('pointerup', (e) => {
    // A drag turns the camera; only a click picks.
    if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 5) return;
    const surface = viewer.positionAndNormalFromPoint(e.clientX, e.clientY);
    if (!surface) return void showElement(null);
    // The camera in model space (model-viewer orbits its target: three.js spherical angles).
    const { theta, phi, radius } = viewer.getCameraOrbit();
    const target = viewer.getCameraTarget();
    const eye = [
      target.x + radius * Math.sin(phi) * Math.sin(theta),
      target.y + radius * Math.cos(phi),
      target.z + radius * Math.sin(phi) * Math.cos(theta),
    ];
    const to = [surface.position.x - eye[0], surface.position.y - eye[1], surface.position.z - eye[2]];
    const length = Math.hypot(...to);
    const variant = viewer.variantName ? variants.indexOf(viewer.variantName) : -1;
    void showElement(
      pick(
        pickable,
        eye,
        to.map((v) => v / length),
        variant,
      ),
    );
  });
  viewer.dataset.picking = 'ready';
}

if (viewer) {
  if (viewer.loaded) void setUpPreview();
  else viewer.addEventListener('load', () => void setUpPreview(), { once: true });
}
