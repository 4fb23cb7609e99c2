// Pages that pin browser.markdown's main-content rules, one defect or structure item each. Served by the
// fixture server (through the real browser) and converted directly in the unit tests.
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const sentence = (topic: string, i: number) =>
  `Comment ${i} on ${topic}: I have been following this story for a while and I think the council should publish the full minutes of the meeting so that everyone can judge. `;

/** (a) A short news item under a comment thread ten times its length. */
export const NEWS_WITH_COMMENTS_HTML = page(
  'Bridge reopens after repairs',
  `<header><a href="/">City Paper</a><nav><a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<main><article>
  <h1>Bridge reopens after repairs</h1>
  <p>The old river bridge reopened to traffic on Monday morning after eight months of repairs to its steel deck and railings, the city council said.</p>
  <p>Engineers replaced corroded beams and resurfaced the roadway. Cyclists get a separate lane on the north side for the first time since the bridge was built.</p>
  <p>The council said the work finished two weeks early and within its budget of 4.2 million euros.</p>
  <section id="comments" class="comments-area"><h2>42 comments</h2><ol class="comment-list">
    ${Array.from({ length: 24 }, (_, i) => `<li class="comment"><p class="comment-author">reader${i}</p><p>${sentence('the bridge', i).repeat(2)}</p></li>`).join('\n')}
  </ol></section>
</article></main>
<footer>City Paper 2025</footer>`,
);

/** (b) An ASP.NET-style page: the whole body is one form; a small search form sits in it too. */
export const FORM_WRAPPED_HTML = page(
  'Opening hours of the library',
  `<form id="aspnetForm" method="post" action="/page.aspx"><input type="hidden" name="__VIEWSTATE" value="x">
  <div class="search"><form role="search"><input name="q"><button>Search</button></form></div>
  <div id="content"><h1>Opening hours of the library</h1>
    <p>The central library is open from nine in the morning to eight in the evening on weekdays, and from ten to four on Saturdays. It is closed on Sundays and public holidays.</p>
    <p>During the summer holidays the library closes at six in the evening. The reading room upstairs keeps the same hours as the lending desk, and the study carrels can be booked at the front desk.</p>
    <p>Returns can be made at any time through the slot beside the main entrance; they are checked in on the next opening day.</p>
  </div></form>`,
);

/** (c) A skip link that the page script turns into an absolute URL before conversion; (d) the title is the article's own heading. */
export const SKIP_LINK_HTML = page(
  'Pruning apple trees',
  `<a class="skip" href="#main">Skip to content</a><a href="#nav">Skip navigation</a>
<main id="main"><article><h1>Pruning apple trees</h1>
  <p>Apple trees are pruned in late winter while they are dormant, before the buds break. Pruning then heals quickly and shapes the tree for the season.</p>
  <p>Start with dead, damaged and crossing branches, then thin the centre so light reaches the fruiting spurs. Never take more than a quarter of the canopy in one year.</p>
</article></main>`,
);

/** Structure: table, fenced code with language, nested list, quote, figure with caption, images. */
export const STRUCTURE_HTML = page(
  'Release notes 2.0',
  `<nav><a href="/">Docs home</a> <a href="/api">API</a> <a href="/guide">Guide</a></nav>
<article><h1>Release notes 2.0</h1>
  <p>Version 2.0 changes the configuration format and adds streaming. This page lists what changed and how to upgrade existing projects without downtime.</p>
  <h2>Changes</h2>
  <table><thead><tr><th>Area</th><th>Before</th><th>After</th></tr></thead><tbody><tr><td>Config</td><td>INI</td><td>TOML</td></tr><tr><td>Streaming</td><td>no</td><td>yes</td></tr></tbody></table>
  <h2>Upgrading</h2>
  <ol><li>Convert the configuration:<ul><li>rename keys</li><li>quote strings</li></ul></li><li>Restart the service.</li></ol>
  <pre><code class="language-toml">[server]
port = 8080</code></pre>
  <blockquote><p>Streaming was the most requested feature of the year.</p></blockquote>
  <figure><img src="/img/diagram.png" alt="Streaming pipeline diagram"><figcaption>How a streamed response flows through the service.</figcaption></figure>
  <p>Icons: <img src="/img/spacer.gif" alt=""> <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="pixel"></p>
  <p>Questions go to the forum; upgrades from 1.x are supported for another year.</p>
</article>`,
);

const LIGHTHOUSE_PARAGRAPHS = `
  <p>The lighthouse on the northern cape was switched off in 1998, when satellite navigation made its beam redundant for the fishing fleet that had relied on it for a century.</p>
  <p>A group of volunteers bought the tower from the state for one euro and spent six summers repairing the lantern room, the spiral staircase and the keeper's cottage beside it.</p>
  <p>Since last spring the light shines again every evening from dusk until midnight, and guided climbs to the gallery are offered on weekends from April to October.</p>`;

/**
 * Content hidden until the page's own scripts run, which here never do: the whole body against a flash of
 * unstyled text. A small pop-up and a link menu that hide themselves stay hidden.
 */
export const HIDDEN_UNTIL_SCRIPT_HTML = page(
  'The lighthouse shines again',
  `<style>body { visibility: hidden } .menu, .popup { display: none }</style>
<nav class="menu">${Array.from({ length: 40 }, (_, i) => `<a href="/section/${i}">Section number ${i} of the archive</a>`).join(' ')}</nav>
<div class="popup"><p>Subscribe to our newsletter for weekly stories from the coast.</p></div>
<article><h1>The lighthouse shines again</h1>${LIGHTHOUSE_PARAGRAPHS}</article>`,
);

/** The article's wrapper is display: none until a script shows it; the visible page is a header and a notice. */
export const ARTICLE_SHOWN_BY_SCRIPT_HTML = page(
  'The lighthouse shines again',
  `<header><a href="/">Coast News</a><p>Please enable JavaScript to read this site.</p></header>
<div id="story" style="display:none"><h1>The lighthouse shines again</h1>${LIGHTHOUSE_PARAGRAPHS}
  <div class="share-popup" style="display:none"><p>Share this story with your friends and family on every network you use.</p></div>
</div>`,
);

/** A closed tab: hidden, with more text than the visible article but not twice as much; it stays hidden. */
export const CLOSED_TAB_HTML = page(
  'The lighthouse shines again',
  `<article><h1>The lighthouse shines again</h1>${LIGHTHOUSE_PARAGRAPHS}</article>
<div class="tabs"><a href="#reviews">Reviews (6)</a><div id="reviews" hidden>${Array.from(
    { length: 6 },
    (_, i) => `<p>Visitor review ${i}: we climbed the tower on a windy afternoon and the view over the cape was worth every step.</p>`,
  ).join('')}</div></div>`,
);

/** Four sentences of plain article prose, for unit tests that check a rule leaves the article alone. */
export const ORCHARD_PROSE = [
  'The orchard on the hill was planted in 1952 by the first cooperative of the village, and it still gives apples every autumn.',
  'Volunteers prune the trees in February, when the sap is low and the branches show their shape without leaves.',
  'Last year the harvest filled four hundred crates, most of which went to the school kitchens of the district.',
  'This spring the cooperative will graft old local varieties onto young rootstock so that they are not lost.',
];

/**
 * The page's own declarations in its body: JSON-LD placed there, and a meta tag after a head that the HTML
 * parser closed early (a <div> in the head moves what follows into the body). Never rendered, never hidden.
 */
export const METADATA_IN_BODY_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The lighthouse shines again | Coast News</title>
<div class="tracking-pixel"></div><meta property="og:site_name" content="Coast News"><meta name="description" content="Volunteers relit the northern cape's lighthouse."></head>
<body><script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"The lighthouse shines again","author":{"@type":"Person","name":"Marta Lindqvist"},"datePublished":"2024-05-01"}</script>
<article><h1>The lighthouse shines again</h1>${LIGHTHOUSE_PARAGRAPHS}</article></body></html>`;
