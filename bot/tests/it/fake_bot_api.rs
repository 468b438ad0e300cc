//! A fake Telegram Bot API on 127.0.0.1: records every call, feeds queued updates through
//! `getUpdates`, and answers each method with a scripted reply, delay or error.
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::Notify;

pub const BOT_ID: i64 = 7_000_000_001;

#[derive(Clone, Debug)]
pub struct Call {
    /// Lower-case method name.
    pub method: String,
    pub body: Value,
}

#[derive(Clone, Debug)]
pub enum Script {
    /// `{"ok":true,"result":..}`
    Ok(Value),
    /// `{"ok":false,"error_code":..,"description":..}`
    Err(u16, String),
    /// Wait, then answer the default reply.
    Delay(Duration),
    /// Drop the connection without an answer (Telegram unreachable).
    Hang,
}

#[derive(Default)]
struct Inner {
    calls: Vec<Call>,
    updates: VecDeque<Value>,
    next_update_id: i64,
    scripts: HashMap<String, VecDeque<Script>>,
    sticky: HashMap<String, Script>,
    next_message_id: i64,
    /// Set by `setWebhook`, cleared by `deleteWebhook`; `getUpdates` fails while it is set.
    webhook_url: String,
    get_updates_calls: usize,
    last_get_updates: Value,
}

#[derive(Clone)]
pub struct FakeBotApi {
    inner: Arc<Mutex<Inner>>,
    notify: Arc<Notify>,
    pub url: String,
}

impl FakeBotApi {
    pub async fn start() -> FakeBotApi {
        FakeBotApi::start_on("127.0.0.1:0".parse().unwrap()).await
    }

    /// On a given address (a test brings Telegram "back" where the app expects it).
    pub async fn start_on(addr: std::net::SocketAddr) -> FakeBotApi {
        let listener = tokio::net::TcpListener::bind(addr).await.expect("bind fake bot api");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let fake = FakeBotApi { inner: Arc::default(), notify: Arc::new(Notify::new()), url };
        let app = Router::new().route("/{bot}/{method}", post(handle)).with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        fake
    }

    /// Queues an update (its `update_id` is set here).
    pub fn push_update(&self, mut update: Value) {
        {
            let mut inner = self.inner.lock().unwrap();
            inner.next_update_id += 1;
            update["update_id"] = json!(inner.next_update_id);
            inner.updates.push_back(update);
        }
        self.notify.notify_waiters();
    }

    /// Delivers `update` again with the id it had (a webhook retry, a replay).
    pub fn replay_update(&self, update: Value) {
        self.inner.lock().unwrap().updates.push_back(update);
        self.notify.notify_waiters();
    }

    /// The id the last pushed update got.
    pub fn last_update_id(&self) -> i64 {
        self.inner.lock().unwrap().next_update_id
    }

    /// The next call of `method` gets this answer (queued scripts run once, in order).
    pub fn script(&self, method: &str, script: Script) {
        self.inner.lock().unwrap().scripts.entry(method.to_lowercase()).or_default().push_back(script);
    }

    /// Every call of `method` gets this answer until replaced.
    pub fn script_always(&self, method: &str, script: Script) {
        self.inner.lock().unwrap().sticky.insert(method.to_lowercase(), script);
    }

    pub fn calls(&self, method: &str) -> Vec<Value> {
        let m = method.to_lowercase();
        self.inner.lock().unwrap().calls.iter().filter(|c| c.method == m).map(|c| c.body.clone()).collect()
    }

    /// As if a webhook was set earlier (by another deployment of the bot).
    pub fn set_webhook_url(&self, url: &str) {
        self.inner.lock().unwrap().webhook_url = url.to_owned();
    }

    pub fn webhook_url(&self) -> String {
        self.inner.lock().unwrap().webhook_url.clone()
    }

    /// How many `getUpdates` calls came (they are not in `calls`).
    pub fn get_updates_calls(&self) -> usize {
        self.inner.lock().unwrap().get_updates_calls
    }

    /// The body of the latest `getUpdates` call.
    pub fn last_get_updates(&self) -> Value {
        self.inner.lock().unwrap().last_get_updates.clone()
    }

    pub fn all_calls(&self) -> Vec<Call> {
        self.inner.lock().unwrap().calls.clone()
    }

    /// Waits until `method` has been called at least `n` times; answers those calls.
    pub async fn wait_calls(&self, method: &str, n: usize) -> Vec<Value> {
        for _ in 0..2400 {
            let calls = self.calls(method);
            if calls.len() >= n {
                return calls;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("{method} was called {} times, expected {n}; calls: {:?}", self.calls(method).len(), self.all_calls());
    }

    fn default_reply(inner: &mut Inner, method: &str, body: &Value) -> Value {
        match method {
            "getme" => json!({
                "id": BOT_ID, "is_bot": true, "first_name": "FragBox", "username": "fragbox_test_bot",
                "can_join_groups": true, "can_read_all_group_messages": false, "supports_inline_queries": true,
                "can_connect_to_business": false, "has_main_web_app": true
            }),
            "sendmessage" => {
                inner.next_message_id += 1;
                let chat_id = body["chat_id"].as_i64().unwrap_or(0);
                json!({
                    "message_id": inner.next_message_id, "date": 1_700_000_000,
                    "chat": {"id": chat_id, "type": "private", "first_name": "User"},
                    "from": {"id": BOT_ID, "is_bot": true, "first_name": "FragBox"},
                    "text": body["text"].clone()
                })
            }
            "createinvoicelink" => json!(format!("https://t.me/$fakeinvoice{}", body["payload"].as_str().unwrap_or(""))),
            "getchatmember" => json!({
                "status": "member",
                "user": {"id": body["user_id"].as_i64().unwrap_or(0), "is_bot": false, "first_name": "User"}
            }),
            "savepreparedinlinemessage" => json!({"id": "prepared-1", "expiration_date": 1_900_000_000}),
            "setwebhook" => {
                inner.webhook_url = body["url"].as_str().unwrap_or("").to_owned();
                json!(true)
            }
            "deletewebhook" => {
                inner.webhook_url.clear();
                json!(true)
            }
            "getwebhookinfo" => json!({"url": inner.webhook_url, "has_custom_certificate": false, "pending_update_count": 0}),
            _ => json!(true),
        }
    }
}

async fn handle(State(fake): State<FakeBotApi>, Path((_bot, method)): Path<(String, String)>, body: axum::body::Bytes) -> Json<Value> {
    let method = method.to_lowercase();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if method == "getupdates" {
        {
            let mut inner = fake.inner.lock().unwrap();
            inner.get_updates_calls += 1;
            inner.last_get_updates = body.clone();
            if !inner.webhook_url.is_empty() {
                let description =
                    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
                return Json(json!({"ok": false, "error_code": 409, "description": description}));
            }
        }
        for _ in 0..2 {
            {
                let mut inner = fake.inner.lock().unwrap();
                if !inner.updates.is_empty() {
                    let ups: Vec<Value> = inner.updates.drain(..).collect();
                    return Json(json!({"ok": true, "result": ups}));
                }
            }
            let _ = tokio::time::timeout(Duration::from_millis(300), fake.notify.notified()).await;
        }
        return Json(json!({"ok": true, "result": []}));
    }
    let script = {
        let mut inner = fake.inner.lock().unwrap();
        inner.calls.push(Call { method: method.clone(), body: body.clone() });
        let queued = inner.scripts.get_mut(&method).and_then(|q| q.pop_front());
        queued.or_else(|| inner.sticky.get(&method).cloned())
    };
    match script {
        Some(Script::Ok(v)) => Json(json!({"ok": true, "result": v})),
        Some(Script::Err(code, description)) => Json(json!({"ok": false, "error_code": code, "description": description})),
        Some(Script::Delay(d)) => {
            tokio::time::sleep(d).await;
            let mut inner = fake.inner.lock().unwrap();
            Json(json!({"ok": true, "result": FakeBotApi::default_reply(&mut inner, &method, &body)}))
        }
        Some(Script::Hang) => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Json(json!({"ok": false}))
        }
        None => {
            let mut inner = fake.inner.lock().unwrap();
            Json(json!({"ok": true, "result": FakeBotApi::default_reply(&mut inner, &method, &body)}))
        }
    }
}

/// A private-chat text message from a user.
pub fn text_update(user_id: i64, first_name: &str, lang: &str, text: &str) -> Value {
    json!({
        "message": {
            "message_id": 1, "date": 1_700_000_000,
            "chat": {"id": user_id, "type": "private", "first_name": first_name},
            "from": {"id": user_id, "is_bot": false, "first_name": first_name, "language_code": lang},
            "text": text,
            "entities": if text.starts_with('/') {
                json!([{"type": "bot_command", "offset": 0, "length": text.split(' ').next().unwrap().len()}])
            } else { json!([]) }
        }
    })
}

/// A `chat_member` update: `user_id`'s status in chat `chat` (a channel) went from `old` to `new`
/// (`member`, `left`, `kicked`, `administrator`...).
pub fn chat_member_update(chat: Value, user_id: i64, old: &str, new: &str) -> Value {
    json!({ "chat_member": member_change(chat, user_id, json!({"id": user_id, "is_bot": false, "first_name": "User"}), old, new) })
}

/// A `my_chat_member` update of the bot in `user_id`'s private chat (`kicked`: blocked, `member`: unblocked).
pub fn my_chat_member_update(user_id: i64, old: &str, new: &str) -> Value {
    let chat = json!({"id": user_id, "type": "private", "first_name": "User"});
    let bot = json!({"id": BOT_ID, "is_bot": true, "first_name": "FragBox", "username": "fragbox_test_bot"});
    let mut change = member_change(chat, user_id, bot, old, new);
    change["from"] = json!({"id": user_id, "is_bot": false, "first_name": "User"});
    json!({ "my_chat_member": change })
}

/// A channel chat as Telegram describes it.
pub fn channel_chat(id: i64, username: &str) -> Value {
    json!({"id": id, "type": "channel", "title": "FragBox News", "username": username})
}

fn member_change(chat: Value, from_id: i64, member: Value, old: &str, new: &str) -> Value {
    let status = |s: &str| {
        let mut m = json!({"status": s, "user": member.clone()});
        if s == "kicked" {
            m["until_date"] = json!(0);
        }
        if s == "administrator" {
            for flag in [
                "can_be_edited",
                "is_anonymous",
                "can_manage_chat",
                "can_delete_messages",
                "can_manage_video_chats",
                "can_restrict_members",
                "can_promote_members",
                "can_change_info",
                "can_invite_users",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
            ] {
                m[flag] = json!(false);
            }
        }
        m
    };
    json!({
        "chat": chat,
        "from": {"id": from_id, "is_bot": false, "first_name": "User"},
        "date": 1_700_000_000,
        "old_chat_member": status(old),
        "new_chat_member": status(new),
    })
}
