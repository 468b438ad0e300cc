// See index.html (the static first slide), vite.config.ts (entryViaFirstSlide) and
// docs/decisions.md, "First open faster".
(function () {
  var me = document.currentScript, shown = false, l;
  try {
    var s = localStorage, h = new URLSearchParams(location.hash.slice(1)), d = h.get('tgWebAppData'), c, k, b, t, m;
    // The player's language, as the app will resolve it (i18n/language.ts, lib/telegram.ts: a
    // stored choice, else Telegram's code, else in the demo the browser's language): its
    // dictionary is preloaded below, whatever the first screen.
    l = s.getItem('app_language');
    c = d ? JSON.parse(new URLSearchParams(d).get('user') || '{}').language_code : (navigator.languages || [])[0] || navigator.language;
    c = String(c || '').trim().toLowerCase().split(/[-_]/)[0];
    if (l != 'ru' && l != 'en') l = !c || /^(ru|uk|be|by|kk|kz|uz|tg|tj)$/.test(c) ? 'ru' : 'en';
    if (!/^\/(onboarding)?$/.test(location.pathname) || s.getItem('token') || s.getItem('termsAccepted') == 'true' || s.getItem('isAuthenticated') == 'true') throw 0;
    m = JSON.parse(s.getItem('maintenance') || '0');
    if (m && m.isMaintenance) throw 0;
    if (d) {
      b = /^#?([0-9a-f]{6})$/i.exec(JSON.parse(h.get('tgWebAppThemeParams') || '{}').bg_color || '');
      if (b) b = parseInt(b[1], 16), k = 0.2126 * (b >> 16) + 0.7152 * ((b >> 8) & 255) + 0.0722 * (b & 255) < 128 ? 'dark' : 'light';
    } else {
      k = matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
    }
    t = s.getItem('app_theme');
    if (t != 'dark' && t != 'light') t = k || 'dark';
    d = document.documentElement;
    d.setAttribute('data-theme', t);
    d.setAttribute('lang', l);
    d.setAttribute('data-first-slide', h.get('tgWebAppData') ? 'tg' : 'demo');
    shown = true;
  } catch (e) {
    // Something stored, or storage refused: no static slide, the splash stays.
  }

  // The app's scripts and the player's language's dictionary (a build puts their addresses on
  // this tag: `data-ru`, `data-en`): once the document is parsed, and when the static slide is
  // shown, once it is painted (at most 1.5 s later).
  var ds = me && me.dataset;
  if (!ds || !ds.entry) return;
  function add(rel, src) {
    var e = document.createElement(rel ? 'link' : 'script');
    e.crossOrigin = 'anonymous';
    if (rel) e.rel = rel, e.href = src, e.setAttribute('fetchpriority', 'low');
    else e.type = 'module', e.src = src;
    document.head.appendChild(e);
  }
  function load() {
    add('', ds.entry);
    (ds.preload + ' ' + ((l && ds[l]) || '')).split(' ').forEach(function (p) {
      if (p) add('modulepreload', p);
    });
  }
  function once() {
    if (ds.entry) load(), (ds.entry = '');
  }
  function parsed() {
    if (!shown || document.visibilityState == 'hidden') return once();
    // The first contentful paint's entry arrives once that frame is on screen.
    try {
      new PerformanceObserver(once).observe({ type: 'paint', buffered: true });
    } catch (e) {
      return once();
    }
    setTimeout(once, 1500);
  }
  if (document.readyState == 'loading') document.addEventListener('DOMContentLoaded', parsed);
  else parsed();
})();
