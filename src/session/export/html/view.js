(function () {
  // Session text is only ever set as text (textContent, text nodes):
  // nothing from the data is parsed as HTML or followed as a URL.
  var source = document.getElementById('data');
  var D = JSON.parse(source.textContent);
  source.remove();
  var WINDOW = 60;       // records rendered at a time
  var SHOWN = 4000;      // characters of a long text shown before "show all"
  var SHOWN_LINES = 60;
  var turnsEl = document.getElementById('turns');
  var hits = [];
  var at = -1;

  function link(label, href) {
    var a = el('a', null, label);
    if (/^[A-Za-z0-9._-]+\.html(#[A-Za-z0-9=_.-]*)?$/.test(href)) a.setAttribute('href', href);
    return a;
  }

  // The header: title, facts, links within an archive.
  document.title = D.title;
  document.getElementById('title').textContent = D.title;
  var facts = document.getElementById('facts');
  function fact(name, value) {
    if (value === undefined || value === null || value === '') return;
    var d = el('div');
    d.appendChild(el('dt', null, name));
    var dd = el('dd');
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = String(value);
    d.appendChild(dd);
    facts.appendChild(d);
  }
  fact('Session', D.id);
  fact('Model', D.model + (D.provider ? ' (' + D.provider + ')' : ''));
  fact('Source', D.source);
  fact('Project', D.workspace);
  fact('Started', D.started);
  fact('Last activity', D.last);
  fact('Records', D.messages + ' messages, ' + D.calls + ' tool calls');
  fact('Tokens', D.tokens);
  if (D.branched) {
    var b = D.branched;
    fact('Branched from', b.href ? link(b.parent + ' before message ' + b.before, b.href)
      : b.parent + ' before message ' + b.before);
  }
  fact('Sub-agent of', D.subagentHref ? link(D.subagentOf, D.subagentHref) : D.subagentOf);
  // Sessions started from this one: listed here, and shown after the
  // record each started at (`#from-<id>` goes there).
  var KIND = { branch: 'Branch', subagent: 'Sub-agent' };
  var childrenAt = {};
  var early = [];
  function childList(kind) {
    var of = (D.children || []).filter(function (c) { return c.kind === kind; });
    if (!of.length) return null;
    var span = el('span', 'children');
    of.forEach(function (c, i) {
      if (i) span.appendChild(document.createTextNode(' · '));
      span.appendChild(c.href ? link(c.title, c.href) : el('span', null, c.title + ' (' + c.id + ')'));
      var here = el('a', null, '\u2193');
      here.setAttribute('href', '#from-' + c.id);
      here.setAttribute('aria-label', 'where it started');
      span.appendChild(document.createTextNode(' '));
      span.appendChild(here);
    });
    return span;
  }
  fact('Branches', childList('branch'));
  fact('Sub-agents', childList('subagent'));
  (D.children || []).forEach(function (c) {
    if (!c.after) { early.push(c); return; }
    var key = c.after.k + c.after.n;
    (childrenAt[key] = childrenAt[key] || []).push(c);
  });
  function childNote(c) {
    var note = el('aside', 'child ' + c.kind);
    note.id = 'from-' + c.id;
    note.appendChild(document.createTextNode(KIND[c.kind] + ' started here: '));
    note.appendChild(c.href ? link(c.title, c.href) : el('span', null, c.title + ' (' + c.id + ')'));
    return note;
  }
  // Compressions noted in the session (ollm-compress --session): listed
  // here, and marked after the last record made before each
  // (`#compressed-<i>` goes there). The stored records are all shown.
  var compressedAt = {};
  var compressions = D.compressions || [];
  function compressionText(c) {
    var text = (c.strategy || 'compression') + ' at ' + c.at;
    if (c.tokensBefore !== undefined && c.tokensAfter !== undefined) {
      text += ', ' + c.tokensBefore + ' \u2192 ' + c.tokensAfter + ' tokens sent';
    }
    if (c.removed !== undefined) text += ', ' + c.removed + ' records left out';
    if (c.snapshot) text += ' (snapshot ' + c.snapshot + ' before it)';
    return text;
  }
  if (compressions.length) {
    var list = el('span', 'children');
    compressions.forEach(function (c, i) {
      if (i) list.appendChild(document.createTextNode(' \u00b7 '));
      var a = el('a', null, c.strategy || 'compression');
      a.setAttribute('href', '#compressed-' + i);
      list.appendChild(a);
      var key = c.after ? c.after.k + c.after.n : '';
      (compressedAt[key] = compressedAt[key] || []).push(i);
    });
    fact('Compressions', list);
  }
  function compressionNote(i) {
    var note = el('aside', 'child compression');
    note.id = 'compressed-' + i;
    note.appendChild(document.createTextNode('Compressed here: ' + compressionText(compressions[i])));
    return note;
  }
  function notesAfter(key) {
    return (childrenAt[key] || []).map(childNote).concat((compressedAt[key] || []).map(compressionNote));
  }
  (D.links || []).forEach(function (l) {
    document.getElementById('links').appendChild(link(l.label, l.href));
  });

  // A long text: its head, and a button that shows the rest from the data.
  function longText(parent, cls, text, tag) {
    var node = el(tag || 'div', cls);
    var cut = text.length > SHOWN ? SHOWN : -1;
    var lines = 0;
    for (var i = 0; i < text.length && i < SHOWN; i++) {
      if (text.charCodeAt(i) === 10 && ++lines >= SHOWN_LINES) { cut = i; break; }
    }
    if (cut < 0) {
      node.textContent = text;
      parent.appendChild(node);
      return;
    }
    node.textContent = text.slice(0, cut);
    parent.appendChild(node);
    var more = el('button', 'all', 'show all (' + (text.length - cut) + ' more characters)');
    more.type = 'button';
    more.addEventListener('click', function () { node.textContent = text; more.remove(); });
    node.showAll = function () { more.click(); };
    parent.appendChild(more);
  }

  function diffBlock(parent, text) {
    var pre = el('pre', 'diff');
    text.split('\n').forEach(function (line) {
      var c = line.charAt(0);
      var cls = line.indexOf('@@') === 0 || line.indexOf('***') === 0 ? 'hunk'
        : c === '+' ? 'add' : c === '-' ? 'del' : null;
      pre.appendChild(el('span', cls, line));
    });
    parent.appendChild(pre);
  }

  // A tool call: one closed line; its body is made when first opened.
  function tool(item) {
    var d = el('details', 'tool');
    d.id = 'tool-' + item.n;
    var s = el('summary');
    s.appendChild(el('span', 'name', item.name));
    s.appendChild(el('span', 'digest', item.digest));
    s.appendChild(el('span', 'status' + (item.status === 'ok' ? '' : ' bad'), item.status));
    if (item.ms !== undefined) s.appendChild(el('span', 'size', (item.ms / 1000).toFixed(1) + ' s'));
    s.appendChild(el('span', 'size', size(item.size)));
    d.appendChild(s);
    d.item = item;
    d.addEventListener('toggle', function () { if (d.open) fill(d); });
    return d;
  }
  function fill(d) {
    if (d.filled) return;
    d.filled = true;
    var item = d.item;
    var body = el('div');
    if (item.diff) {
      body.appendChild(el('h4', null, 'Edit'));
      diffBlock(body, item.diff);
    }
    body.appendChild(el('h4', null, 'Arguments'));
    longText(body, 'args', item.args, 'pre');
    body.appendChild(el('h4', null, 'Result'));
    longText(body, 'result', item.result, 'pre');
    d.appendChild(body);
  }

  function message(item) {
    var id = 'msg-' + item.n;
    if (item.role === 'system') {
      // Compaction summaries and command output: a boundary, collapsed.
      var d = el('details', 'boundary');
      d.id = id;
      var first = item.text.split('\n')[0];
      d.appendChild(el('summary', null, 'system · ' + first.slice(0, 160)));
      var box = el('div');
      longText(box, 'text', item.text);
      (item.images || []).forEach(function (p) { box.appendChild(picture(p)); });
      d.appendChild(box);
      d.filled = true;
      return d;
    }
    var a = el('article', 'msg ' + item.role);
    a.id = id;
    var h = el('header');
    var anchor = el('a', null, item.role + ' · ' + item.at + ' · #' + item.n);
    anchor.setAttribute('href', '#' + id);
    h.appendChild(anchor);
    a.appendChild(h);
    if (item.text) longText(a, 'text', item.text);
    (item.images || []).forEach(function (p) { a.appendChild(picture(p)); });
    return a;
  }

  // An image: a thumbnail that opens to its full size in the page. Only
  // a data: URL of a kept image type is ever made (the policy allows
  // nothing else), from data that is only base64.
  var IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;
  var BASE64 = /^[A-Za-z0-9+\/]*={0,2}$/;
  function picture(p) {
    if (!p.data || !IMAGE_TYPE.test(p.mime) || !BASE64.test(p.data)) {
      return el('div', 'image-note', p.note || '[image]');
    }
    var src = 'data:' + p.mime + ';base64,' + p.data;
    var d = el('details', 'image');
    var s = el('summary');
    var thumb = el('img', 'thumb');
    thumb.alt = p.mime + ', ' + size(p.bytes);
    thumb.src = src;
    s.appendChild(thumb);
    s.appendChild(el('span', 'size', p.mime + ' \u00b7 ' + size(p.bytes)));
    d.appendChild(s);
    d.addEventListener('toggle', function () {
      if (!d.open || d.full) return;
      d.full = el('img', 'full');
      d.full.alt = thumb.alt;
      d.full.src = src;
      d.appendChild(d.full);
    });
    return d;
  }

  // Rendering is lazy, a window of records at a time (a turn may be long):
  // `cursor` is the next record to render, [turn, item].
  var cursor = [0, 0];
  var openTurn = null;
  function turnCard(t, index) {
    var sec = el('section', 'turn');
    sec.id = 'turn-' + index;
    var h = el('header');
    h.appendChild(el('span', null, 'Turn ' + (index + 1)));
    if (t.tokens !== undefined) h.appendChild(el('span', null, t.tokens + ' tokens'));
    sec.appendChild(h);
    turnsEl.appendChild(sec);
    return sec;
  }
  function done() { return cursor[0] >= D.turns.length; }
  function renderOne() {
    var t = D.turns[cursor[0]];
    if (cursor[1] === 0) openTurn = turnCard(t, cursor[0]);
    var item = t.items[cursor[1]];
    if (item) {
      item.node = item.k === 't' ? tool(item) : message(item);
      openTurn.appendChild(item.node);
      notesAfter(item.k + item.n).forEach(function (note) { openTurn.appendChild(note); });
    }
    if (++cursor[1] >= t.items.length) cursor = [cursor[0] + 1, 0];
  }
  function before(t, i) { return cursor[0] < t || (cursor[0] === t && cursor[1] <= i); }
  // Renders a window more, and on to record `i` of turn `t` if asked.
  function renderTo(t, i) {
    var n = 0;
    while (!done() && (t === undefined ? n++ < WINDOW : before(t, i))) renderOne();
  }

  early.forEach(function (c) { turnsEl.appendChild(childNote(c)); });
  (compressedAt[''] || []).forEach(function (i) { turnsEl.appendChild(compressionNote(i)); });
  var more = document.getElementById('more');
  renderTo();
  function nearEnd() { return more.getBoundingClientRect().top < innerHeight + 800; }
  if ('IntersectionObserver' in window) {
    new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; })) return;
      // Still in view after a short window: keep going, a frame at a time.
      (function step() { renderTo(); if (!done() && nearEnd()) requestAnimationFrame(step); })();
    }, { rootMargin: '800px' }).observe(more);
  }

  // Where message n (or tool call n) is: its turn.
  function turnOf(kind, n) {
    for (var t = 0; t < D.turns.length; t++) {
      var items = D.turns[t].items;
      for (var i = 0; i < items.length; i++) {
        if (items[i].k === kind && items[i].n === n) return [t, i, items[i]];
      }
    }
    return null;
  }

  // Search: over the data, so text inside closed or unrendered sections
  // is found; a hit is rendered, its section opened, the match marked.
  var FIELDS = { m: ['text'], t: ['name', 'digest', 'args', 'result', 'diff'] };
  var q = document.getElementById('q');
  var count = document.getElementById('count');
  function search(query) {
    clearMarks();
    hits = [];
    at = -1;
    var needle = query.toLowerCase();
    if (needle.length >= 2) {
      D.turns.forEach(function (t, ti) {
        t.items.forEach(function (item, ii) {
          var found = FIELDS[item.k].some(function (f) {
            return typeof item[f] === 'string' && item[f].toLowerCase().indexOf(needle) >= 0;
          });
          if (found) hits.push({ t: ti, i: ii, item: item });
        });
      });
    }
    count.textContent = needle.length < 2 ? '' : hits.length ? hits.length + ' found' : 'not found';
    if (hits.length) go(0);
  }
  function clearMarks() {
    document.querySelectorAll('mark').forEach(function (m) {
      var p = m.parentNode;
      p.replaceChild(document.createTextNode(m.textContent), m);
      p.normalize();
    });
  }
  function mark(root, needle) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    var marks = [];
    nodes.forEach(function (node) {
      if (node.parentNode.closest('summary') && root.tagName === 'DETAILS') return;
      var lower = node.data.toLowerCase();
      var i = lower.indexOf(needle);
      while (i >= 0 && node) {
        var hit = node.splitText(i);
        node = hit.splitText(needle.length);
        var m = el('mark', null, hit.data);
        hit.parentNode.replaceChild(m, hit);
        marks.push(m);
        lower = node.data.toLowerCase();
        i = lower.indexOf(needle);
      }
    });
    return marks;
  }
  function go(k) {
    if (!hits.length) return;
    at = (k + hits.length) % hits.length;
    var hit = hits[at];
    renderTo(hit.t, hit.i);
    var node = hit.item.node;
    clearMarks();
    var needle = q.value.toLowerCase();
    if (node.tagName === 'DETAILS') {
      fill(node);
      node.open = true;
    }
    node.querySelectorAll('.all').forEach(function (b) { b.click(); });
    var marks = mark(node, needle);
    if (!marks.length) marks = mark(node.querySelector('summary') || node, needle);
    var target = marks[0] || node;
    if (marks[0]) marks[0].className = 'current';
    target.scrollIntoView({ block: 'center' });
    count.textContent = (at + 1) + ' of ' + hits.length;
  }
  var timer = null;
  q.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { search(q.value); }, 200);
  });
  q.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { clearTimeout(timer); if (hits.length && q.value) go(at + (e.shiftKey ? -1 : 1)); else search(q.value); }
  });
  document.getElementById('next').addEventListener('click', function () { go(at + 1); });
  document.getElementById('prev').addEventListener('click', function () { go(at - 1); });

  // Deep links: #msg-<n>, #tool-<n>, and #q=<words> (from an archive's index).
  function follow() {
    var hash = decodeURIComponent(location.hash.slice(1));
    var m = /^(msg|tool)-(\d+)$/.exec(hash);
    if (m) {
      var found = turnOf(m[1] === 'msg' ? 'm' : 't', Number(m[2]));
      if (!found) return;
      renderTo(found[0], found[1]);
      var node = found[2].node;
      if (node.tagName === 'DETAILS' && m[1] === 'tool') { fill(node); node.open = true; }
      node.scrollIntoView({ block: 'start' });
    } else if (hash.indexOf('from-') === 0 || hash.indexOf('compressed-') === 0) {
      var child = hash.indexOf('from-') === 0
        ? (D.children || []).filter(function (c) { return 'from-' + c.id === hash; })[0]
        : compressions[Number(hash.slice('compressed-'.length))];
      var spot = child && child.after && turnOf(child.after.k, child.after.n);
      if (spot) renderTo(spot[0], spot[1]);
      var note = document.getElementById(hash);
      if (note) note.scrollIntoView({ block: 'center' });
    } else if (hash.indexOf('q=') === 0) {
      q.value = hash.slice(2);
      search(q.value);
    }
  }
  window.addEventListener('hashchange', follow);
  follow();
})();
