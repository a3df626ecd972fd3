/// The app's one stylesheet: light and dark from `prefers-color-scheme` (or the theme the user
/// chose), three panes that become one below 700 px, visible focus, text and marks that never
/// rely on colour alone.
enum AppStylesheet {
    /// The dark palette, for the system's dark mode and for the dark theme.
    static let dark = "--bg:#121217;--pane:#1b1b22;--text:#ececf2;--muted:#a9a9bb;--line:#33333f;--hover:#262633;--open:#2c3052;--accent:#8e9bff;--accent-text:#0d0d18;--focus:#b3bcff;--unread:#9eaaff;--star:#f2b34b;--danger:#ff8a80;--toast:#ececf2;--toast-text:#121217;--pill:#2b2b38;--shadow:0 2px 12px rgba(0,0,0,.5)"

    /// The splitter's positions, one rule per percent, chosen by `data-split` on the panes
    /// (the server writes it from the `vaultmail_split` cookie, the script while dragging).
    static let splits = MailPage.splitRange.map { ".panes[data-split=\"\($0)\"]{--list:var(--area) * .\($0)}" }.joined(separator: "\n")

    static let css = #"""
:root{color-scheme:light dark;--bg:#f6f6f9;--pane:#fff;--text:#1b1b1f;--muted:#55556a;--line:#dcdce4;--hover:#eef0fb;--open:#e3e7fd;--accent:#3b4fd8;--accent-text:#fff;--focus:#1a3cff;--unread:#2a3fd1;--star:#a15c00;--danger:#b3261e;--toast:#23232b;--toast-text:#fff;--pill:#ececf4;--shadow:0 2px 10px rgba(0,0,0,.12)}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){\#(dark)}}
:root[data-theme=dark]{color-scheme:dark;\#(dark)}
:root[data-theme=light]{color-scheme:light}
*{box-sizing:border-box}
html,body{height:100%}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.skip{position:absolute;left:8px;top:-48px;background:var(--accent);color:var(--accent-text);padding:8px 12px;border-radius:6px;z-index:20}
.skip:focus{top:8px}
.icon{width:18px;height:18px;flex:none;vertical-align:middle}
kbd{font:12px ui-monospace,monospace;border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:1px 5px;background:var(--pane)}
button,select,input{font:inherit;color:inherit}
button{cursor:pointer}
.app{display:flex;flex-direction:column;height:100vh;overflow:hidden}
.topbar{display:flex;align-items:center;gap:12px;padding:8px 16px;background:var(--pane);border-bottom:1px solid var(--line);flex:none}
.brand{font-weight:700;font-size:17px;color:var(--text);text-decoration:none;letter-spacing:.2px}
.search{flex:1;max-width:560px;position:relative;display:flex;align-items:center}
.search input{width:100%;padding:7px 36px 7px 12px;border:1px solid var(--line);border-radius:8px;background:var(--bg)}
.search .hint-key{position:absolute;right:10px;color:var(--muted)}
.icon-button{display:inline-flex;align-items:center;justify-content:center;width:36px;height:36px;border:1px solid transparent;border-radius:8px;background:none}
.icon-button:hover{background:var(--hover)}
.connection{display:flex;align-items:center;gap:6px;margin:0;padding:4px 10px;border-radius:999px;background:var(--pill);color:var(--danger);font-size:13px;font-weight:600}
.connection[hidden]{display:none}
.connection-detail{font-weight:400;color:var(--muted);max-width:28ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.panes{flex:1;display:grid;--side:216px;--area:(100% - var(--side) - 8px);--list:min(max(var(--area) * .52,var(--area) - 640px),var(--area) * .62);grid-template-columns:var(--side) max(300px,calc(var(--list))) 8px minmax(0,1fr);min-height:0}
.splitter{cursor:col-resize;background:var(--bg);border-right:1px solid var(--line);touch-action:none;position:relative}
.splitter::after{content:"";position:absolute;top:50%;left:2px;width:3px;height:32px;margin-top:-16px;border-radius:2px;background:var(--line)}
.splitter:hover::after,.splitter:focus-visible::after{background:var(--accent)}
.splitter:focus-visible{outline-offset:-3px}
.sidebar{overflow:auto;padding:10px 8px;border-right:1px solid var(--line);background:var(--bg)}
.boxes{list-style:none;margin:0 0 8px;padding:0}
.boxes a{display:flex;align-items:center;gap:10px;padding:6px 10px;border-radius:8px;color:var(--text);text-decoration:none}
.boxes a:hover{background:var(--hover)}
.boxes a[aria-current=page]{background:var(--open);font-weight:650}
.box-name{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.count{font-size:12px;font-weight:650;color:var(--muted)}
.account h3{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:14px 10px 4px;font-size:13px;font-weight:650}
.acct-email{flex-basis:100%;font-weight:400;color:var(--muted);font-size:12px;overflow:hidden;text-overflow:ellipsis}
.acct-mark{display:inline-block;width:4px;height:14px;border-radius:2px;flex:none}
.ac0{background:#3b4fd8}.ac1{background:#0a7d4f}.ac2{background:#b3261e}.ac3{background:#8a4fd8}.ac4{background:#b35f00}.ac5{background:#00788a}
.hint{color:var(--muted);font-size:13px;margin:4px 10px}
.list-pane{display:flex;flex-direction:column;min-height:0;min-width:0;background:var(--pane);container:list/inline-size}
.list-head{padding:12px 16px 4px}
.list-head h1{margin:0;font-size:20px}
.tabs ul{display:flex;gap:2px;list-style:none;margin:0;padding:4px 12px 0;overflow-x:auto;scrollbar-width:none;border-bottom:1px solid var(--line)}
.tabs a{display:block;padding:6px 8px;color:var(--muted);text-decoration:none;border-bottom:3px solid transparent;white-space:nowrap}
.tabs a[aria-current=page]{color:var(--text);border-bottom-color:var(--accent);font-weight:650}
#list-form{display:flex;flex-direction:column;min-height:0;flex:1}
.toolbar{display:flex;align-items:center;flex-wrap:wrap;gap:4px;padding:6px 12px;border-bottom:1px solid var(--line)}
.tool{display:inline-flex;align-items:center;gap:6px;padding:5px 9px;border:1px solid var(--line);border-radius:8px;background:var(--pane);font-size:13px}
.tool:hover{background:var(--hover)}
.tool.on{border-color:var(--accent);color:var(--accent)}
.select-all{display:none;align-items:center;gap:6px;margin-right:6px;font-size:13px;color:var(--muted)}
.js .select-all{display:inline-flex}
#shortcuts-button{display:none}
.js #shortcuts-button{display:inline-flex}
.js .list-pane .toolbar .tool{display:none}
.js .list-pane.selecting .toolbar .tool{display:inline-flex}
.js .list-pane .toolbar .tool.mark-all{display:inline-flex}
.list-pane .toolbar .tool.mark-all[hidden],.js .list-pane .toolbar .tool.mark-all[hidden],.js .list-pane.selecting .toolbar .tool.mark-all{display:none}
.threads>.date-heading{padding:12px 16px 4px;border-bottom:1px solid var(--line)}
.date-heading h2{margin:0;font-size:12px;font-weight:650;letter-spacing:.02em;color:var(--muted)}
.selection-count{font-size:13px;color:var(--muted);margin-left:auto}
.threads{list-style:none;margin:0;padding:0;overflow:auto;flex:1}
.row{display:flex;align-items:center;gap:6px;padding:0 6px 0 10px;border-bottom:1px solid var(--line);position:relative}
.row:hover{background:var(--hover)}
.row.open{background:var(--open)}
.row.current{box-shadow:inset 0 0 0 2px var(--accent)}
.row.selected{background:var(--open)}
.row .select{width:16px;height:16px;flex:none}
.row-link{display:grid;grid-template-columns:32px minmax(0,1fr) auto auto;grid-template-areas:"av top marks date" "av line line line";align-items:center;column-gap:8px;flex:1;min-width:0;padding:9px 0;color:var(--text);text-decoration:none}
.avatars{grid-area:av;display:flex;flex:none;width:32px}
.avatar{display:inline-flex;align-items:center;justify-content:center;width:32px;height:32px;border-radius:50%;font-size:13px;font-weight:700;color:#fff;flex:none}
.avatars.stacked .avatar{width:24px;height:24px;font-size:10px;border:2px solid var(--pane)}
.avatars.stacked .avatar+.avatar{margin-left:-16px;margin-top:12px}
.av0{background:#3b4fd8}.av1{background:#0a7a4d}.av2{background:#b3261e}.av3{background:#7a3fc8}.av4{background:#9a5200}.av5{background:#00707f}.av6{background:#b0306a}.av7{background:#4d5b6b}
.row-top{grid-area:top;display:flex;align-items:center;gap:6px;min-width:0}
.sender{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.row time{grid-area:date;font-size:12px;color:var(--muted);white-space:nowrap;text-align:right}
.row-bottom{grid-area:line;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:14px}
.snippet{color:var(--muted)}
.unread .sender,.unread .subject{font-weight:700}
.unread time{color:var(--text);font-weight:700}
.unread-mark{width:8px;height:8px;border-radius:50%;background:var(--unread);flex:none}
.row .acct-mark{position:absolute;left:0;top:0;bottom:0;width:4px;height:auto;border-radius:0}
@container list (max-width:460px){.marks .pill{display:none}}
@container list (min-width:680px){
.row-link{grid-template-columns:minmax(0,12rem) minmax(0,1fr) auto auto;grid-template-areas:"top line marks date";padding:8px 0}
.row-link .avatars{display:none}
.row time{min-width:4.5em}
}
@container list (min-width:900px){.row-link{grid-template-columns:minmax(0,14rem) minmax(0,1fr) auto auto}}
.marks{grid-area:marks;display:flex;align-items:center;justify-content:flex-end;gap:4px;color:var(--muted)}
.pill{display:inline-block;padding:1px 8px;border-radius:999px;background:var(--pill);color:var(--text);font-size:11px;font-weight:650}
.pill.vip{background:var(--star);color:var(--pane)}
.outbox .row-link{display:flex;align-items:center;padding-left:4px}
.row-main{display:flex;flex-direction:column;min-width:0;flex:1}
.pill.state-failed{background:var(--danger);color:var(--pane)}
.row-actions{position:absolute;right:44px;top:50%;transform:translateY(-50%);display:flex;gap:2px;padding:2px;border-radius:8px;background:var(--hover);opacity:0;pointer-events:none}
.row:hover .row-actions,.row:focus-within .row-actions{opacity:1;pointer-events:auto}
.row.open .row-actions,.row.selected .row-actions{background:var(--open)}
.row-action{display:inline-flex;align-items:center;justify-content:center;width:30px;height:30px;border:0;border-radius:6px;background:none;color:var(--text)}
.row-action:hover{background:var(--pane)}
.star{border:0;background:none;color:var(--muted);width:30px;height:30px;border-radius:8px;flex:none}
.star:hover{background:var(--pane)}
.star.on{color:var(--star)}
.more{list-style:none;text-align:center;padding:14px}
.empty{padding:40px 24px;text-align:center;color:var(--muted)}
.empty-title{font-size:17px;font-weight:650;color:var(--text);margin:0 0 6px}
.notice{margin:8px 12px;padding:8px 12px;border-radius:8px;background:var(--pill);font-size:14px}
.notice.error{color:var(--danger)}
.crypto-state{margin:4px 0 8px}
.notice.crypto-state{margin:4px 0 8px;font-weight:600}
.notice.crypto-state p{margin:0}
.pill.crypto{font-size:12px;white-space:normal;border-radius:10px}
.setup-import{margin:12px 0;padding:10px 12px;border:1px solid var(--line);border-radius:8px}
.setup-import h3{margin:0 0 6px;font-size:15px}
.setup-import .setup-code-input{width:min(100%,28em);font-family:ui-monospace,monospace}
.setup-code-digits code{font-size:18px;letter-spacing:.05em}
.reading-pane{overflow:auto;background:var(--bg);min-width:0}
.conversation{max-width:980px;margin:0 auto;padding:4px 18px 40px}
.conv-head{position:sticky;top:0;background:var(--bg);padding:4px 0 2px;z-index:3}
.conv-title-line{display:flex;align-items:baseline;flex-wrap:wrap;gap:2px 10px;margin:2px 0}
.conv-head h2{margin:0;font-size:19px;line-height:1.3;overflow-wrap:anywhere}
#conv-title:focus{outline:none}
.conv-meta{margin:0;color:var(--muted);font-size:13px}
.conv-actions{padding:2px 0;border:0;flex-wrap:nowrap}
.more-menu{margin-left:auto}
.back{display:none;align-items:center;gap:4px;text-decoration:none;font-weight:600}
.messages{list-style:none;margin:0;padding:0}
.msg-fold>summary{list-style:none;cursor:pointer;display:flex;align-items:center;gap:10px;margin:6px 0;color:var(--muted);font-size:13px}
.msg-fold>summary::-webkit-details-marker{display:none}
.msg-fold>summary::before,.msg-fold>summary::after{content:"";flex:1;border-top:1px solid var(--line)}
.fold-count{border:1px solid var(--line);border-radius:999px;padding:2px 12px;background:var(--pane);color:var(--text)}
.msg-fold>summary:focus-visible .fold-count{outline:2px solid var(--accent);outline-offset:2px}
.msg-older{display:flex;align-items:center;justify-content:center;flex-wrap:wrap;gap:4px 12px;margin:6px 0 10px;font-size:13px;color:var(--muted)}
.older-link{border:1px solid var(--line);border-radius:999px;padding:4px 14px;background:var(--pane);color:var(--text);text-decoration:none;font-weight:600}
.older-link:hover{border-color:var(--accent)}
.message{background:var(--pane);border:1px solid var(--line);border-radius:10px;margin:6px 0}
.msg>summary{display:flex;align-items:center;gap:10px;padding:6px 14px;cursor:pointer;list-style:none}
.msg>summary::-webkit-details-marker{display:none}
.msg>summary .avatar{width:28px;height:28px;font-size:12px}
.from{font-weight:650;flex:none;max-width:40%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.message.unread .from::after{content:" •";color:var(--unread)}
.msg-snippet{flex:1;min-width:0;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.msg[open] .msg-snippet{visibility:hidden}
.msg>summary time{font-size:12px;color:var(--muted);flex:none}
.msg-body{padding:0 14px 14px}
.msg-line{display:flex;align-items:flex-start;gap:8px;margin:-4px 0 4px 38px;font-size:13px;color:var(--muted);min-height:20px}
.msg-details{flex:1;min-width:0}
.msg-details>summary{cursor:pointer;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;width:fit-content;max-width:100%}
.msg-details[open]>summary{margin-bottom:4px}
.msg-line .headers{margin:0 0 6px}
.msg-line .msg-actions{display:flex;gap:4px;flex:none}
.headers{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:0 0 10px;font-size:13px}
.headers dt{color:var(--muted)}
.headers dd{margin:0;overflow-wrap:anywhere}
.address{color:var(--muted)}
.link-button{border:0;background:none;color:var(--accent);text-decoration:underline;padding:0 4px;font-size:13px}
.images-bar{display:flex;align-items:center;flex-wrap:wrap;gap:10px;margin:0 0 8px;padding:8px 10px;border-radius:8px;background:var(--pill);font-size:13px}
.mail-frame{display:block;width:100%;border:1px solid var(--line);border-radius:8px;background:#fff;resize:vertical;overflow:auto}
.h1{height:160px}.h2{height:320px}.h3{height:480px}.h4{height:640px}.h5{height:800px}.h6{height:960px}.h7{height:1120px}.h8{height:1280px}.h9{height:1440px}.h10{height:1600px}.h11{height:1760px}.h12{height:1920px}
.mail-frame.sized{resize:none}
.plain{white-space:pre-wrap;overflow-wrap:anywhere;font-size:15px}
.plain blockquote,.quoted blockquote{margin:6px 0;padding-left:12px;border-left:3px solid var(--line);color:var(--muted)}
details.quoted>summary{cursor:pointer;color:var(--muted);font-size:13px;margin:6px 0}
.att-head{display:flex;align-items:center;flex-wrap:wrap;gap:8px 14px;margin:12px 0 8px}
.attachments h3{display:flex;align-items:center;gap:6px;font-size:14px;margin:0}
.att-all{text-decoration:none;color:var(--text)}
.att-list{list-style:none;display:flex;flex-wrap:wrap;gap:8px;margin:0;padding:0}
.att-list li{min-width:0;max-width:100%}
.att-chip{display:flex;align-items:center;gap:10px;width:272px;max-width:100%;height:86px;padding:6px 12px 6px 6px;border:1px solid var(--line);border-radius:8px;text-decoration:none;color:var(--text);background:var(--pane)}
.att-chip:hover{background:var(--hover)}
.att-thumb{flex:none;width:96px;height:72px;object-fit:cover;border-radius:6px;background:var(--pill)}
.att-badge{flex:none;display:flex;align-items:center;justify-content:center;width:56px;height:72px;border-radius:6px;background:var(--pill);color:var(--muted);font-size:12px;font-weight:700;letter-spacing:.04em}
.att-text{display:flex;flex-direction:column;min-width:0}
.att-name{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.att-meta{font-size:12px;color:var(--muted)}
.event-card{display:flex;align-items:flex-start;gap:12px;margin:0 0 10px;padding:12px 14px;border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:8px;background:var(--pane)}
.event-card>.icon{width:22px;height:22px;color:var(--accent)}
.event-text{min-width:0}
.event-title{margin:0 0 4px;font-size:16px;overflow-wrap:anywhere}
.event-when{margin:0 0 4px;font-weight:600}
.event-fact{margin:0;font-size:13px;overflow-wrap:anywhere}
.event-label{color:var(--muted);margin-right:4px}
.msg-clip{flex:none;display:inline-flex;color:var(--muted)}
.msg-clip .icon{width:16px;height:16px}
@media (max-width:699px){.att-list li{flex:1 1 100%}.att-chip{width:100%}}
.toasts{position:fixed;left:50%;bottom:20px;transform:translateX(-50%);display:flex;flex-direction:column;gap:8px;z-index:30}
.toast{display:flex;align-items:center;gap:14px;padding:10px 14px;border-radius:10px;background:var(--toast);color:var(--toast-text);box-shadow:var(--shadow)}
.toast button{border:0;background:none;color:inherit;font-weight:700;text-decoration:underline}
.toast.error{background:var(--danger);color:var(--pane)}
.banners{position:fixed;right:16px;bottom:16px;display:flex;flex-direction:column;gap:8px;z-index:30;width:min(360px,calc(100vw - 32px))}
.banner{display:flex;gap:10px;align-items:flex-start;padding:10px 12px;border-radius:10px;background:var(--pane);border:1px solid var(--line);box-shadow:var(--shadow)}
.banner a{flex:1;min-width:0;color:var(--text);text-decoration:none}
.banner strong,.banner span{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.banner span{color:var(--muted);font-size:13px}
.banner button{border:0;background:none;color:var(--muted);font-size:18px;line-height:1}
dialog{border:1px solid var(--line);border-radius:12px;background:var(--pane);color:var(--text);padding:20px;max-width:420px;box-shadow:var(--shadow)}
dialog::backdrop{background:rgba(0,0,0,.35)}
dialog table{border-collapse:collapse;width:100%;margin:10px 0}
dialog td,dialog th{padding:4px 8px;text-align:left;border-bottom:1px solid var(--line)}
.primary{padding:7px 14px;border:0;border-radius:8px;background:var(--accent);color:var(--accent-text);font-weight:650}
.signin{display:flex;align-items:center;justify-content:center;min-height:100vh;padding:20px}
.signin-card{max-width:480px;background:var(--pane);border:1px solid var(--line);border-radius:14px;padding:28px;box-shadow:var(--shadow)}
.signin-card h1{margin-top:0}
.signin-card pre{background:var(--bg);border:1px solid var(--line);border-radius:8px;padding:10px 14px;font-size:15px}
@media (max-width:1100px){.panes{--side:200px}}
.menu{position:relative}
.menu>summary{list-style:none;cursor:pointer}
.menu>summary::-webkit-details-marker{display:none}
.menu[open]>summary{background:var(--hover)}
.menu-panel{position:absolute;top:calc(100% + 4px);left:0;z-index:10;min-width:200px;max-width:min(420px,80vw);max-height:60vh;overflow:auto;padding:6px;background:var(--pane);border:1px solid var(--line);border-radius:10px;box-shadow:var(--shadow);display:flex;flex-direction:column;align-items:stretch;gap:2px;font-size:14px}
.more-menu .menu-panel{left:auto;right:0}
.conv-actions{position:relative}
.conv-actions .ai-menu{position:static}
.menu-item,.menu-panel>.tool{display:block;width:100%;text-align:left;padding:6px 10px;border:0;border-radius:6px;background:none}
.menu-panel>.tool{display:flex}
.menu-item:hover{background:var(--hover)}
.menu-panel .category-bar{padding:6px 10px;border-top:1px solid var(--line);margin-top:4px;line-height:1.9}
.menu-panel.summary-pop{left:0;right:0;width:auto;max-width:none;padding:0;border:0;background:none;box-shadow:none}
.summary-pop .summary-panel{margin:0;box-shadow:var(--shadow)}
.compose-fab{display:none}
@media (max-width:699px){
.panes{display:block;overflow:auto}
.sidebar{display:none}
.panes:has(#sidebar:target) .sidebar{display:block}
.panes:has(#sidebar:target) .list-pane{display:none}
.list-pane{height:100%;border-right:0}
.reading-pane{display:none;height:100%}
.thread-open .reading-pane{display:block}
.thread-open .list-pane{display:none}
.back{display:inline-flex}
.splitter,.brand,#shortcuts-button,.js #shortcuts-button{display:none}
.topbar{gap:8px;padding:8px 10px}
.search{max-width:none}
.compose-fab{display:inline-flex;align-items:center;gap:8px;position:fixed;right:16px;bottom:16px;z-index:25;padding:12px 18px;border-radius:999px;background:var(--accent);color:var(--accent-text);font-weight:650;text-decoration:none;box-shadow:var(--shadow)}
.thread-open~.compose-fab,.panes:has(#sidebar:target)~.compose-fab{display:none}
.threads{padding-bottom:72px}
.tool:not(.menu-panel>.tool)>.tool-label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.search .hint-key,.connection-detail{display:none}
.conversation{padding:8px 10px 30px}
.banners{top:60px;bottom:auto}
}
@media (min-width:700px){.mailboxes-link{display:none}}
.reading-pane{container:reading/inline-size}
@container reading (max-width:760px){.conv-actions .tool:not([value=archive]):not([value=delete]):not(.move-menu>.tool):not(.menu-panel>.tool) .tool-label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.conv-actions .tool{padding:5px 8px}}
@container reading (max-width:420px){.conv-actions .tool:not(.menu-panel>.tool) .tool-label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}}
.compose-button{display:flex;align-items:center;justify-content:center;gap:8px;margin:2px 4px 12px;padding:9px 14px;border-radius:10px;background:var(--accent);color:var(--accent-text);font-weight:650;text-decoration:none}
.compose-button:hover{filter:brightness(1.08)}
.reply-bar,.draft-bar{display:flex;flex-wrap:wrap;gap:8px;margin:14px 0 0;align-items:center}
.reply-bar .tool,.draft-bar .tool,.topbar .tool{text-decoration:none;color:var(--text)}
.compose-page{overflow:auto}
.compose-main{flex:1;display:flex;justify-content:center;padding:18px 16px 60px;overflow:auto}
.composer{width:100%;max-width:820px;background:var(--pane);border:1px solid var(--line);border-radius:12px;padding:18px 22px;box-shadow:var(--shadow);align-self:flex-start}
.composer h1{margin:0 0 12px;font-size:20px}
.composer .field{display:grid;grid-template-columns:72px minmax(0,1fr);align-items:start;gap:4px 10px;margin:0;padding:6px 0;border-bottom:1px solid var(--line)}
.composer .field>label,.composer .field .label{padding-top:6px;color:var(--muted);font-size:14px}
.composer input[type=text],.composer select{width:100%;padding:6px 0;border:1px solid transparent;border-radius:6px;background:transparent}
.composer input[type=text]:focus,.composer select:focus{border-color:var(--line);background:var(--bg)}
.from-line span:last-child{padding-top:6px}
.token-box{display:flex;flex-wrap:wrap;gap:4px;align-items:center;min-height:34px;cursor:text}
.token-box input[type=text]{flex:1;min-width:12ch;width:auto}
.token{display:inline-flex;align-items:center;gap:2px;padding:2px 4px 2px 10px;border-radius:999px;background:var(--pill);font-size:14px;max-width:100%}
.token-text{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.token.invalid{background:transparent;border:2px dashed var(--danger);color:var(--danger)}
.token-remove{border:0;background:none;width:24px;height:24px;border-radius:50%;font-size:16px;line-height:1}
.token-remove:hover{background:var(--hover)}
.field-error{grid-column:2;margin:0;color:var(--danger);font-size:13px}
.field-error:empty{display:none}
.recipients{position:relative}
.suggestions{position:absolute;left:82px;right:0;top:100%;z-index:10;list-style:none;margin:2px 0 0;padding:4px;background:var(--pane);border:1px solid var(--line);border-radius:8px;box-shadow:var(--shadow)}
.suggestions li{padding:6px 10px;border-radius:6px;cursor:pointer}
.suggestions li span{color:var(--muted);font-size:13px}
.suggestions li[aria-selected=true],.suggestions li:hover{background:var(--open)}
.copies{display:none}.copies.shown{display:block}
html:not(.js) .copies{display:block}
html:not(.js) #show-copies{display:none}
#show-copies{margin:6px 0 0 82px}
.body-field{display:block!important;border-bottom:0!important}
.composer textarea{width:100%;min-height:260px;padding:10px;border:1px solid var(--line);border-radius:8px;background:var(--bg);font:15px/1.5 ui-monospace,"DejaVu Sans Mono",monospace;resize:vertical;color:inherit}
.compose-options{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:6px 0}
.crypto-options>label[for=encryption]{display:inline;margin:0;padding:0;width:auto}
.composer .crypto-options select{width:auto;padding:4px 6px;border-color:var(--line);background:var(--bg)}
.compose-lock{flex-basis:100%;margin:0;color:var(--muted)}
.compose-lock[data-state=encrypted]{color:var(--accent-text);font-weight:600}
.compose-lock[data-state=problem]{color:var(--danger);font-weight:600}
.check{display:inline-flex;gap:6px;align-items:center}
.hint-text{color:var(--muted);font-size:13px}
.attachments-box{margin:10px 0;padding:10px;border:2px dashed var(--line);border-radius:10px}
.attachments-box.dropping{border-color:var(--accent);background:var(--hover)}
.attachment-list{list-style:none;margin:0;padding:0}
.attachment-list li{display:flex;align-items:center;gap:8px;padding:3px 0}
.file-name{display:inline-flex;gap:4px;align-items:center;font-weight:600}
.file-size{color:var(--muted);font-size:13px}
.attach-row{display:flex;flex-wrap:wrap;align-items:center;gap:10px;margin:6px 0 0}
.attach-row label.tool{cursor:pointer}
.visually-hidden-file{position:absolute;width:1px;height:1px;opacity:0}
.attach-row:focus-within label.tool{outline:3px solid var(--focus);outline-offset:2px}
.compose-actions{display:flex;align-items:center;gap:12px;margin-top:12px}
.compose-actions .primary{padding:9px 22px}
.primary:disabled{opacity:.5;cursor:not-allowed}
.save-state{flex:1;color:var(--muted);font-size:13px}
.tool.danger{color:var(--danger)}
.outbox-row{display:flex;flex-direction:column;align-items:stretch}
.outbox-reason{display:block;color:var(--danger);font-size:13px;margin-top:2px}
.outbox-actions{display:flex;gap:6px;padding:0 16px 10px}
.compact .row-link{padding:5px 0}
.compact .avatars{display:none}
.compact .row-bottom .snippet{display:none}
.settings-page{overflow:auto}
.settings-main{flex:1;display:flex;gap:24px;max-width:980px;width:100%;margin:0 auto;padding:18px 16px 60px}
.settings-nav{flex:none;width:180px;position:sticky;top:12px;align-self:flex-start}
.settings-nav ul{list-style:none;margin:0;padding:0}
.settings-nav a{display:block;padding:6px 10px;border-radius:8px;color:var(--text);text-decoration:none}
.settings-nav a:hover{background:var(--hover)}
.settings-content{flex:1;min-width:0}
.settings-content h1{margin:0 0 10px;font-size:22px}
.settings-section{background:var(--pane);border:1px solid var(--line);border-radius:12px;padding:14px 18px;margin:0 0 16px}
.settings-section h2{margin:0 0 8px;font-size:18px}
.settings-section h3{margin:0 0 6px;font-size:16px}
.setting{margin:10px 0;padding:0;border:0}
fieldset.setting{border-top:1px solid var(--line);padding-top:8px}
legend{font-weight:650;padding:0}
.radio{display:block;padding:3px 0}
.switch{display:inline-flex;align-items:center;gap:10px;cursor:pointer}
.switch input{position:absolute;opacity:0;width:42px;height:24px;margin:0}
.switch-track{position:relative;width:42px;height:24px;border-radius:999px;background:var(--line);flex:none;transition:background .15s}
.switch-track::after{content:"";position:absolute;top:3px;left:3px;width:18px;height:18px;border-radius:50%;background:var(--pane);box-shadow:0 1px 2px rgba(0,0,0,.3);transition:transform .15s}
.switch input:checked+.switch-track{background:var(--accent)}
.switch input:checked+.switch-track::after{transform:translateX(18px)}
.switch input:focus-visible+.switch-track{outline:3px solid var(--focus);outline-offset:2px}
.times{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;align-items:center;max-width:360px}
.times input{padding:4px 6px;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
.settings-form select{padding:4px 6px;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
.autosave .save-button{display:none}
.plain-list{list-style:none;margin:6px 0;padding:0}
.plain-list li{display:flex;align-items:center;justify-content:space-between;gap:10px;padding:5px 0;border-bottom:1px solid var(--line)}
.inline-form{display:inline-flex;align-items:center;gap:8px;flex-wrap:wrap;margin:6px 0 0}
.inline-form input[type=email]{padding:5px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);min-width:240px}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:6px 0}
.facts dt{color:var(--muted)}
.facts dd{margin:0}
.decisions{border-collapse:collapse;width:100%;font-size:14px}
.decisions th,.decisions td{text-align:left;padding:5px 6px;border-bottom:1px solid var(--line);vertical-align:top}
.why-answer{padding:8px 12px;border-left:4px solid var(--accent);background:var(--hover);border-radius:6px;margin:8px 0}
#settings-status[hidden]{display:none}
#settings-status.error{color:var(--danger)}
@media (max-width:700px){.settings-main{flex-direction:column}.settings-nav{position:static;width:auto}.settings-nav ul{display:flex;flex-wrap:wrap;gap:4px}}
.onboarding-page{overflow:auto}
.onboarding{flex:1;display:flex;justify-content:center;padding:28px 16px 60px}
.onboarding-card{width:100%;max-width:620px;background:var(--pane);border:1px solid var(--line);border-radius:14px;padding:22px 26px;box-shadow:var(--shadow);align-self:flex-start}
.onboarding-card h1{margin:0 0 10px;font-size:24px}
.lead{font-size:16px;color:var(--muted)}
.stack{display:flex;flex-direction:column;gap:8px}
.stack input[type=text],.stack input[type=email],.stack input[type=password],.stack input[type=number],.stack select,.stack textarea{width:100%;padding:8px 10px;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:inherit;font:inherit}
.stack-field{display:flex;flex-direction:column;gap:4px;flex:1}
.stack-field .hint-text{margin:0}
.pair{display:flex;gap:10px}.pair .stack-field:last-child{flex:0 0 110px}
.stack details{border:1px solid var(--line);border-radius:8px;padding:8px 12px}
.stack summary{cursor:pointer;font-weight:600}
.stack fieldset{border:0;padding:0;margin:4px 0}
.conn-check{margin:10px 0;padding:10px 14px;border-radius:10px;border:1px solid var(--line)}
.conn-check.passed{border-color:#0a7d4f}
.conn-check.failed{border-color:var(--danger)}
.conn-check ol{margin:6px 0 0;padding-left:20px}
.conn-check li.ok::marker{color:#0a7d4f}
.conn-check li.bad{color:var(--danger)}
.conn-check .detail{color:var(--text)}
.button-link{display:inline-block;text-decoration:none}
.danger-button{background:var(--danger)}
.danger-zone{margin-top:22px;padding-top:12px;border-top:1px solid var(--line)}
.summary-panel{margin:10px 0 4px;padding:12px 16px;background:var(--pane);border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:10px}
.summary-panel[data-state=offer]{border-left-width:1px;padding:8px 12px}
.summary-panel[data-state=stale] .summary-text{color:var(--muted)}
.summary-title,.replies-title{display:flex;align-items:center;gap:6px;margin:0 0 2px;font-size:15px}
.summary-title .icon,.replies-title .icon{color:var(--accent)}
#summary-title:focus{outline:none}
.summary-by{margin:0 0 6px;color:var(--muted);font-size:13px}
.summary-text p{margin:0}
.summary-text ul{margin:0;padding-left:20px}
.summary-text li+li{margin-top:3px}
.summary-stale,.summary-offer,.summary-pending,.replies-loading,.replies-ask{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:8px 0 0;font-size:14px}
.summary-offer{margin:0}
.summary-panel .notice{margin:6px 0 0}
.summary-pending,.replies-loading{color:var(--muted)}
html:not(.js) .summary-pending,html:not(.js) .replies-loading,.js .summary-nojs,.js .replies-ask{display:none}
.spinner{display:inline-block;width:14px;height:14px;border:2px solid var(--line);border-top-color:var(--accent);border-radius:50%;flex:none}
.smart-replies{margin:16px 0 0;padding:12px 14px;background:var(--pane);border:1px solid var(--line);border-radius:10px}
.suggestion-list{display:flex;flex-wrap:wrap;gap:8px;list-style:none;margin:8px 0 0;padding:0}
.suggestion{display:inline-block;max-width:100%;padding:7px 14px;border:1px solid var(--accent);border-radius:999px;color:var(--accent);background:var(--pane);text-decoration:none;font-size:14px;overflow-wrap:anywhere}
.suggestion:hover{background:var(--hover)}
.replies-notice{margin:8px 0 0}
.smart-replies .notice{margin:8px 0 0}
@media (prefers-reduced-motion:no-preference){.spinner{animation:spin .9s linear infinite}@keyframes spin{to{transform:rotate(360deg)}}}
@media (prefers-reduced-motion:reduce){.spinner{border-top-color:var(--line);background:var(--accent);transform:scale(.5)}}
\#(splits)
@media (prefers-reduced-motion:no-preference){.toast,.banner{animation:rise .18s ease-out}@keyframes rise{from{opacity:0;transform:translateY(8px)}to{opacity:1;transform:none}}}
.draft-card{border:2px dashed var(--danger);background:var(--bg)}
.draft-head{display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding:10px 14px 4px}
.draft-head time{margin-left:auto;font-size:12px;color:var(--muted)}
.draft-pill{background:var(--danger);color:var(--pane)}
.draft-to{font-size:14px;color:var(--muted);overflow-wrap:anywhere}
.draft-text{margin:4px 14px 0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:9em;overflow:hidden}
.draft-card .draft-bar{margin:8px 14px 12px}
.inline-composer{margin:16px 0 0}
.inline-composer .composer{max-width:none;box-shadow:none;padding:10px 16px 0}
.inline-composer .composer textarea{min-height:140px}
.composer-head{display:flex;align-items:center;justify-content:space-between;gap:8px}
.composer-head h3{margin:0;font-size:17px}
.composer-close{font-size:22px;line-height:1}
.inline-composer .compose-actions{position:sticky;bottom:0;z-index:2;margin:8px -16px 0;padding:10px 16px;background:var(--pane);border-top:1px solid var(--line);border-radius:0 0 12px 12px}
.connection{position:relative}
.connection-more>summary{display:flex;align-items:center;gap:6px;cursor:pointer;list-style:none}
.connection-more>summary::-webkit-details-marker{display:none}
.connection-panel{position:absolute;right:0;top:calc(100% + 6px);z-index:40;width:min(380px,90vw);padding:10px 12px;background:var(--pane);color:var(--text);border:1px solid var(--line);border-radius:10px;box-shadow:var(--shadow);font-weight:400}
.connection-panel .connection-detail{display:block;max-width:none;white-space:normal;color:var(--text);margin:0 0 6px}
.connection-tech>summary,.toast details>summary{cursor:pointer;font-size:12px}
.connection-tech>summary{color:var(--muted)}
.connection-tech pre,.toast pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;margin:4px 0 0;max-width:60ch}
.connection-short{display:none}
@media (max-width:700px){.connection-short{display:inline}.connection-long{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.connection-panel{position:fixed;left:5vw;right:5vw;top:56px;width:auto}}
.pending-changes{margin:12px 10px;font-size:13px;color:var(--muted)}
.pending-changes summary{display:flex;align-items:center;gap:6px;cursor:pointer;color:var(--text)}
.pending-changes ul{margin:6px 0 0;padding-left:18px}
.pending-changes p{margin:6px 0 0}
.problem>p{margin:0}
.problem-detail>summary{cursor:pointer;font-size:12px;color:var(--muted)}
.problem-detail pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;margin:4px 0 0;color:var(--text)}
.conn-check .problem-detail{margin:2px 0 4px}
.outbox-row .problem-detail{margin:2px 0 0 12px}
.notice+.problem-detail{margin:-4px 12px 8px 24px}
.menu-item.unsubscribe-item{color:var(--text);text-decoration:none}
.menu-note{display:block;padding:6px 10px;color:var(--muted)}
.sidebar-extra{margin:14px 10px 4px;font-size:14px}
.sidebar-extra a{color:var(--muted)}
.subs-scroll{overflow-x:auto}
.subs-table{border-collapse:collapse;width:100%;font-size:14px}
.subs-table th,.subs-table td{padding:8px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}
.subs-table thead th{font-size:13px;color:var(--muted);white-space:nowrap}
.subs-table thead a{color:inherit}
.subs-table thead th[aria-sort] a{color:var(--text);font-weight:700}
.subs-table thead th[aria-sort=descending] a::after{content:" \2193"}
.subs-table thead th[aria-sort=ascending] a::after{content:" \2191"}
.subs-table .num{text-align:right;font-variant-numeric:tabular-nums}
.subs-sender{font-weight:400}
.subs-name{font-weight:650}
.subs-address,.subs-list{display:block;color:var(--muted);font-size:13px;overflow-wrap:anywhere}
.subs-done,.subs-none{color:var(--muted);white-space:nowrap}
.subs-action form{margin:0}
.confirm-dialog h2{margin:0 0 8px;font-size:18px}
.confirm-dialog p{margin:0 0 16px;overflow-wrap:anywhere}
.dialog-buttons{display:flex;gap:8px;justify-content:flex-end}
@media (max-width:700px){.subs-table th:nth-child(2),.subs-table td.subs-recent,.subs-table .subs-read,.subs-list{display:none}.subs-table th,.subs-table td{padding:8px 6px}.subs-done{white-space:normal}}
.shield-note{margin:0 0 8px;font-size:13px;color:var(--muted)}
.shield-note>summary{display:inline-flex;align-items:center;gap:6px;cursor:pointer;color:var(--text)}
.shield-note>summary .icon{width:16px;height:16px}
.shield-note p{margin:6px 0 4px}
.shield-note ul{margin:0;padding-left:18px}
.shield-host{font-weight:600;color:var(--text);overflow-wrap:anywhere}
.privacy-senders td,.privacy-senders th,.storage-table td,.storage-table th{text-align:left;padding:4px 16px 4px 0;vertical-align:top}
.privacy-senders caption,.storage-table caption{text-align:left;font-weight:600;padding-bottom:4px}
.table-scroll{max-width:100%;overflow-x:auto}
.storage-table{border-collapse:collapse;margin-bottom:8px}
.storage-table thead th{font-size:13px;color:var(--muted);font-weight:600;border-bottom:1px solid var(--line)}
.storage-table tbody th{font-weight:600}
.storage-table tbody th .address{display:block;font-weight:400;color:var(--muted);font-size:13px}
.storage-table td{font-variant-numeric:tabular-nums}
.snooze-panel{min-width:240px}
.conv-actions .snooze-menu{position:static}
.conv-actions .snooze-menu .menu-panel{left:auto;right:0}
.snooze-choice{display:flex;justify-content:space-between;gap:16px;align-items:baseline}
.snooze-time{color:var(--muted);font-size:13px;white-space:nowrap}
.snooze-pick{display:flex;flex-direction:column;gap:4px;padding:8px 10px 4px;margin-top:4px;border-top:1px solid var(--line)}
.snooze-pick label{font-size:13px;color:var(--muted)}
.snooze-pick input{font:inherit;padding:4px 6px;border:1px solid var(--line);border-radius:6px;background:var(--pane);color:var(--text);color-scheme:light dark}
.snooze-pick .menu-item{margin-top:2px;text-align:center;border:1px solid var(--line)}
.wake{font-size:12px;font-weight:650;color:var(--accent);white-space:nowrap}
.compose-actions:not(.inline-composer .compose-actions){position:relative}
.send-later-menu{position:static}
.send-later-menu .menu-panel{top:auto;left:0;bottom:calc(100% + 4px);min-width:min(300px,80vw)}
.snooze-pick .send-later-choice{justify-content:center}
.send-later-choice .snooze-name{white-space:nowrap}
.send-later-choice{display:flex;justify-content:space-between;gap:16px;align-items:baseline}
.send-later-menu>summary{display:inline-flex;align-items:center;gap:6px}
.pill.state-scheduled{background:var(--accent);color:var(--pane)}
.snoozed-note{align-self:center;font-size:13px;color:var(--muted);margin-right:4px}
"""#
}
