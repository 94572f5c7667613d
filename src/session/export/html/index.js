(function () {
  // Session text is only ever set as text: nothing from the data is
  // parsed as HTML; links go only to this archive's own page names.
  var source = document.getElementById('data');
  var D = JSON.parse(source.textContent);
  source.remove();
  var S = D.sessions;

  function pageLink(s, hash) {
    var a = el('a', null, s.title);
    if (/^[A-Za-z0-9._-]+\.html$/.test(s.href)) a.setAttribute('href', s.href + (hash || ''));
    return a;
  }
  function row(s, cls) {
    var li = el('li', cls);
    li.appendChild(pageLink(s));
    var facts = [s.started.slice(0, 16).replace('T', ' '), s.source || s.model,
      s.messages + ' messages', s.calls + ' tool calls', size(s.bytes)];
    if (s.kind) facts.push(s.kind === 'branch' ? 'branch' : 'sub-agent');
    li.appendChild(el('span', 'meta', facts.join(' · ')));
    return li;
  }

  document.getElementById('summary').textContent =
    S.length + (S.length === 1 ? ' session' : ' sessions');

  // Sessions by project, newest first; a branch and a sub-agent's run
  // under the session it came from, where that session has a page here.
  var byId = new Map();
  S.forEach(function (s) { byId.set(s.id, s); });
  var children = new Map();
  var projects = new Map();
  // A parent whose own line of parents comes back to s (a loop) is none.
  function parentOf(s) {
    var parent = s.parent && byId.get(s.parent);
    for (var up = parent, n = 0; up && n < S.length; up = up.parent && byId.get(up.parent), n++) {
      if (up === s) return null;
    }
    return parent;
  }
  S.forEach(function (s) {
    var parent = parentOf(s);
    if (parent) {
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(s);
      return;
    }
    var p = s.project || '(no project)';
    if (!projects.has(p)) projects.set(p, []);
    projects.get(p).push(s);
  });
  var KIND = { branch: 'branch', subagent: 'sub-agent' };
  function tree(s, cls, seen) {
    var li = row(s, cls);
    var kids = (children.get(s) || []).filter(function (c) { return !seen.has(c); });
    if (kids.length) {
      var list = el('ul');
      kids.sort(function (a, b) { return a.started < b.started ? -1 : 1; }).forEach(function (c) {
        seen.add(c);
        list.appendChild(tree(c, 'session sub ' + (KIND[c.kind] ? c.kind : ''), seen));
      });
      li.appendChild(list);
    }
    return li;
  }
  var main = document.getElementById('projects');
  Array.from(projects.keys()).sort().forEach(function (p) {
    var sec = el('section', 'project');
    sec.appendChild(el('h2', null, p));
    var list = el('ul');
    projects.get(p).sort(function (a, b) { return a.started < b.started ? 1 : -1; })
      .forEach(function (s) { list.appendChild(tree(s, 'session', new Set([s]))); });
    sec.appendChild(list);
    main.appendChild(sec);
  });

  // Search: every word of the query must be a word of the session (or
  // begin one); each session found links to its page searching for it.
  var words = Object.keys(D.words);
  function sessionsWith(word) {
    var found = new Set(D.words[word] || []);
    if (word.length >= 3) {
      words.forEach(function (w) {
        if (w.length > word.length && w.indexOf(word) === 0) D.words[w].forEach(function (i) { found.add(i); });
      });
    }
    return found;
  }
  var q = document.getElementById('q');
  var hitsEl = document.getElementById('hits');
  var count = document.getElementById('count');
  function search() {
    hitsEl.textContent = '';
    var query = q.value.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(function (w) { return w.length >= 2; });
    if (!query.length) { count.textContent = ''; return; }
    var result = null;
    query.forEach(function (w) {
      var found = sessionsWith(w);
      result = result === null ? found : new Set(Array.from(result).filter(function (i) { return found.has(i); }));
    });
    var list = Array.from(result).sort(function (a, b) { return S[a].started < S[b].started ? 1 : -1; });
    count.textContent = list.length ? list.length + ' found' : 'not found';
    list.forEach(function (i) {
      var li = el('li', 'hit');
      li.appendChild(pageLink(S[i], '#q=' + encodeURIComponent(query[0])));
      li.appendChild(el('span', 'meta', (S[i].project || '') + ' · ' + S[i].started.slice(0, 10)));
      hitsEl.appendChild(li);
    });
  }
  var timer = null;
  q.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(search, 150); });
})();
