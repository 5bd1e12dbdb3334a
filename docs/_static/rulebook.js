// A link to something inside a closed <details> opens it (and every closed one around it).
function hanafudaOpenTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  let el = id ? document.getElementById(id) : null;
  for (; el; el = el.parentElement) {
    if (el.tagName === 'DETAILS' && !el.open) el.open = true;
  }
  if (id && document.getElementById(id)) document.getElementById(id).scrollIntoView();
}
window.addEventListener('hashchange', hanafudaOpenTarget);
document.addEventListener('DOMContentLoaded', () => { if (location.hash) hanafudaOpenTarget(); });
