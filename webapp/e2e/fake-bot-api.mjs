// A tiny stand-in for the Telegram Bot API, enough for the `fragbox` binary to start its bot
// with a token: `getMe` with the capability flags teloxide requires, long-polled `getUpdates`
// that stay empty, and `true` for everything else. Method names are matched case-insensitively
// (teloxide sends them PascalCase). Every call is recorded.
import { createServer } from 'node:http';

export async function startFakeBotApi() {
  const calls = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const method = (req.url ?? '').split('/').pop().toLowerCase();
      let params = {};
      try {
        params = body ? JSON.parse(body) : {};
      } catch {
        // multipart or empty: not needed here
      }
      calls.push({ method, params });
      const answer = (result) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ok: true, result }));
      };
      switch (method) {
        case 'getme':
          return answer({
            id: 7000000001,
            is_bot: true,
            first_name: 'FragBox',
            username: 'fragbox_test_bot',
            can_join_groups: true,
            can_read_all_group_messages: false,
            supports_inline_queries: true,
            can_connect_to_business: false,
            has_main_web_app: true,
          });
        case 'getupdates':
          // A long poll that never brings anything: answer after a short wait.
          return setTimeout(() => answer([]), Math.min(Number(params.timeout ?? 1), 1) * 1000);
        case 'getwebhookinfo':
          return answer({ url: '', has_custom_certificate: false, pending_update_count: 0 });
        default:
          return answer(true);
      }
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    stop: () => new Promise((ok) => server.close(() => ok())),
  };
}
