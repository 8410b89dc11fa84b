// The session page's one script of its own: the expiry counts down (the text works without it).
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
