// See index.html (the static first slide) and docs/decisions.md, "First open faster".
(function () {
  try {
    var s = localStorage, h = new URLSearchParams(location.hash.slice(1)), d = h.get('tgWebAppData'), c, k, b, l, t, m;
    if (!/^\/(onboarding)?$/.test(location.pathname) || s.getItem('token') || s.getItem('termsAccepted') == 'true' || s.getItem('isAuthenticated') == 'true') return;
    m = JSON.parse(s.getItem('maintenance') || '0');
    if (m && m.isMaintenance) return;
    if (d) {
      c = JSON.parse(new URLSearchParams(d).get('user') || '{}').language_code;
      b = /^#?([0-9a-f]{6})$/i.exec(JSON.parse(h.get('tgWebAppThemeParams') || '{}').bg_color || '');
      if (b) b = parseInt(b[1], 16), k = 0.2126 * (b >> 16) + 0.7152 * ((b >> 8) & 255) + 0.0722 * (b & 255) < 128 ? 'dark' : 'light';
    } else {
      c = (navigator.languages || [])[0] || navigator.language;
      k = matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
    }
    l = s.getItem('app_language');
    c = String(c || '').trim().toLowerCase().split(/[-_]/)[0];
    if (l != 'ru' && l != 'en') l = !c || /^(ru|uk|be|by|kk|kz|uz|tg|tj)$/.test(c) ? 'ru' : 'en';
    t = s.getItem('app_theme');
    if (t != 'dark' && t != 'light') t = k || 'dark';
    d = document.documentElement;
    d.setAttribute('data-theme', t);
    d.setAttribute('lang', l);
    d.setAttribute('data-first-slide', h.get('tgWebAppData') ? 'tg' : 'demo');
  } catch (e) {}
})();
