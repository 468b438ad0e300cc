//! Keeps the bot alive. It reaches Telegram (retrying with a capped back-off for as long as it
//! cannot, start-up included), sets the bot up, and feeds updates — from long polling, or from
//! the webhook route — through one queue to the dispatcher, which takes each update once
//! (deduplicated in the database) and is restarted should it ever panic. Every change between
//! "Telegram answers" and "it does not" is logged once and shown in `/readyz` and
//! `fragbox_bot_up`.
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::BoxStream;
use teloxide::error_handlers::IgnoringErrorHandler;
use teloxide::prelude::*;
use teloxide::requests::JsonRequest;
use teloxide::stop::{mk_stop_token, StopToken};
use teloxide::types::{BotCommand, BotCommandScope, ChatId, Me, MenuButton, Recipient, WebAppInfo};
use teloxide::update_listeners::{AsUpdateStream, UpdateListener};
use teloxide::RequestError;
use tokio::sync::{mpsc, watch, Mutex};
use webapp_api::domain::{bot_updates, Domain};
use webapp_api::http::health::Change;
use webapp_api::http::metrics::Metrics;

use crate::config::{Config, Webhook};
use crate::schema::{self, ALLOWED_UPDATES};
use crate::{handlers, texts};

/// Updates waiting for the dispatcher. A full queue makes the webhook answer 503, so Telegram
/// delivers again later.
pub const QUEUE: usize = 1024;
/// Long-polling wait per `getUpdates`, in seconds.
pub const POLL_TIMEOUT_SECS: u32 = 25;
/// On webhooks nothing else calls Telegram while no one plays: check in this often.
pub const CHECK_IN_EVERY: Duration = Duration::from_secs(30);
/// Forget taken update ids this often.
pub const PRUNE_EVERY: Duration = Duration::from_secs(600);
/// Retries start at this delay and double up to `BACKOFF_MAX`.
pub const BACKOFF_START: Duration = Duration::from_millis(500);
/// Short enough that the bot is back within seconds of Telegram (or the network) coming back;
/// one `getMe` every few seconds costs Telegram nothing.
pub const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// The queue's ends: the webhook route and the poller send, the dispatcher receives.
pub fn queue() -> (mpsc::Sender<Update>, mpsc::Receiver<Update>) {
    mpsc::channel(QUEUE)
}

/// Exponential back-off with a cap.
#[derive(Debug)]
pub struct Backoff(Duration);

impl Default for Backoff {
    fn default() -> Self {
        Backoff(BACKOFF_START)
    }
}

impl Backoff {
    /// The delay before the next try (and doubles the one after, up to the cap).
    pub fn next_delay(&mut self) -> Duration {
        let d = self.0;
        self.0 = (self.0 * 2).min(BACKOFF_MAX);
        d
    }

    pub fn reset(&mut self) {
        self.0 = BACKOFF_START;
    }
}

/// Resolves once the process is stopping.
async fn stopping(stop: &mut watch::Receiver<bool>) {
    while !*stop.borrow_and_update() {
        if stop.changed().await.is_err() {
            return;
        }
    }
}

/// Sleeps `d`; false when the process began stopping meanwhile.
async fn pause(d: Duration, stop: &mut watch::Receiver<bool>) -> bool {
    tokio::select! {
        _ = tokio::time::sleep(d) => !*stop.borrow(),
        _ = stopping(stop) => false,
    }
}

/// Telegram answered: logged when that is news.
fn reached(metrics: &Metrics) {
    if metrics.bot.reached() == Change::CameUp {
        tracing::info!("Telegram answers: the bot is up");
    }
}

/// A call to Telegram failed: logged loudly when that is news, quietly while it lasts.
fn failed(metrics: &Metrics, call: &str, e: &RequestError) {
    if metrics.bot.failed() == Change::WentDown {
        tracing::error!(call, error = %e, "Telegram does not answer: the bot is down; retrying every {}s at most", BACKOFF_MAX.as_secs());
    } else {
        tracing::debug!(call, error = %e, "Telegram still does not answer");
    }
}

/// Everything the bot's loops need.
pub struct BotRuntime {
    pub bot: Bot,
    pub config: Arc<Config>,
    pub domain: Domain,
    pub metrics: Arc<Metrics>,
    /// The sending end of the queue, for the poller.
    pub tx: mpsc::Sender<Update>,
    pub rx: mpsc::Receiver<Update>,
    /// Set once Telegram was reached and the dispatcher is about to run (the webhook route
    /// refuses updates before that).
    pub dispatching: Arc<AtomicBool>,
}

impl BotRuntime {
    /// Runs until `stop` turns true: reach Telegram, set up, feed and dispatch updates.
    pub async fn run(self, mut stop: watch::Receiver<bool>) {
        let BotRuntime { bot, config, domain, metrics, tx, rx, dispatching } = self;
        if !connect(&bot, &config, &domain, &metrics, &dispatching, &mut stop).await {
            return;
        }
        let feed = match config.webhook.clone() {
            Some(hook) => tokio::spawn(check_in(bot.clone(), hook, metrics.clone(), stop.clone())),
            None => tokio::spawn(poll(bot.clone(), tx, metrics.clone(), stop.clone())),
        };
        let feeders = [feed, tokio::spawn(prune(domain.clone(), stop.clone()))];

        let rx = Arc::new(Mutex::new(rx));
        let mut backoff = Backoff::default();
        loop {
            let listener = QueueListener::new(rx.clone(), stop.clone());
            let handler = dispatch_tree(metrics.clone());
            let deps = dptree::deps![domain.clone(), config.clone()];
            let bot = bot.clone();
            let run = tokio::spawn(async move {
                let mut dispatcher = Dispatcher::builder(bot, handler).dependencies(deps).default_handler(|_| async {}).build();
                dispatcher.try_dispatch_with_listener(listener, IgnoringErrorHandler::new()).await
            });
            match run.await {
                // The queue ended: the process is stopping.
                Ok(Ok(())) => break,
                // `getMe` failed as the dispatcher started.
                Ok(Err(e)) => {
                    failed(&metrics, "getMe", &e);
                    if !pause(backoff.next_delay(), &mut stop).await {
                        break;
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, "the dispatcher stopped unexpectedly; starting it again");
                    if !pause(backoff.next_delay(), &mut stop).await {
                        break;
                    }
                }
            }
        }
        for f in feeders {
            let _ = f.await;
        }
    }
}

/// The dispatcher's tree: each update is taken once across replicas and redeliveries, then
/// counted and handled.
fn dispatch_tree(metrics: Arc<Metrics>) -> teloxide::dispatching::UpdateHandler<Box<dyn std::error::Error + Send + Sync>> {
    dptree::entry().filter_async(first_delivery).inspect(move || metrics.bot_update()).chain(schema::schema())
}

/// True for the first delivery of an update. Fails closed: while the database cannot record
/// the update (busy, down), it is neither handled nor dropped — the take is retried with a
/// growing pause (its chat's later updates wait behind it), so an update is handled once, and
/// only once it is recorded.
async fn first_delivery(update: Update, me: Me, domain: Domain) -> bool {
    let mut pause = Duration::from_millis(100);
    loop {
        match bot_updates::take(&domain, me.id.0 as i64, i64::from(update.id.0)).await {
            Ok(true) => return true,
            Ok(false) => {
                tracing::info!(update_id = update.id.0, "update delivered again: already taken");
                return false;
            }
            Err(e) => {
                tracing::error!(update_id = update.id.0, error = %e, "could not record the update; not handling it until it is recorded");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// Reaches Telegram and sets the bot up, retrying until it works: `getMe`, then `setWebhook`
/// (on webhooks) or `deleteWebhook` (long polling needs it gone), then, once, the commands and
/// the menu button. Once Telegram is reached, `dispatching` is set (before the bot reports
/// itself up, so a ready replica's webhook takes updates). False when the process stopped first.
async fn connect(
    bot: &Bot,
    config: &Config,
    domain: &Domain,
    metrics: &Metrics,
    dispatching: &AtomicBool,
    stop: &mut watch::Receiver<bool>,
) -> bool {
    let mut backoff = Backoff::default();
    loop {
        let attempt = async {
            bot.get_me().await.map_err(|e| ("getMe", e))?;
            match &config.webhook {
                Some(hook) => set_webhook(bot, hook).await.map_err(|e| ("setWebhook", e))?,
                // Pending updates stay: a payment may be among them.
                None => bot.delete_webhook().await.map(|_| ()).map_err(|e| ("deleteWebhook", e))?,
            }
            Ok::<(), (&str, RequestError)>(())
        };
        let result = tokio::select! {
            r = attempt => r,
            _ = stopping(stop) => return false,
        };
        match result {
            Ok(()) => {
                dispatching.store(true, Ordering::Release);
                reached(metrics);
                // Logged, never fatal; a stop does not wait for these.
                return tokio::select! {
                    _ = set_up_bot(bot, config, domain) => true,
                    _ = stopping(stop) => false,
                };
            }
            Err((call, e)) => {
                failed(metrics, call, &e);
                if !pause(backoff.next_delay(), stop).await {
                    return false;
                }
            }
        }
    }
}

/// Commands and the menu button; failures are logged, never fatal.
async fn set_up_bot(bot: &Bot, config: &Config, domain: &Domain) {
    for (lang, cmds) in [("ru", texts::commands(texts::Lang::Ru)), ("en", texts::commands(texts::Lang::En))] {
        let list: Vec<BotCommand> = cmds.iter().map(|(c, d)| BotCommand::new(*c, *d)).collect();
        let mut req = bot.set_my_commands(list);
        if lang == "ru" {
            req = req.language_code("ru");
        }
        if let Err(e) = req.await {
            tracing::error!(error = %e, lang, "setMyCommands failed");
        }
    }
    // Admins see their commands after the players' ones, in their own chats only, in their language.
    for admin in &config.admin_ids {
        let lang = handlers::admin::admin_lang_by_id(domain, *admin).await;
        let mut admin_list: Vec<BotCommand> = texts::commands(lang).iter().map(|(c, d)| BotCommand::new(*c, *d)).collect();
        admin_list.extend(texts::admin::commands(lang).iter().map(|(c, d)| BotCommand::new(*c, *d)));
        let scope = BotCommandScope::Chat { chat_id: Recipient::Id(ChatId(*admin)) };
        if let Err(e) = bot.set_my_commands(admin_list.clone()).scope(scope).await {
            tracing::error!(error = %e, admin, "setMyCommands for an admin chat failed");
        }
    }
    if let Ok(url) = config.webapp_url().parse() {
        let button = MenuButton::WebApp { text: "FragBox".into(), web_app: WebAppInfo { url } };
        if let Err(e) = bot.set_chat_menu_button().menu_button(button).await {
            tracing::error!(error = %e, "setChatMenuButton failed");
        }
    }
}

/// `setWebhook` with our URL, secret and update types. Sent as JSON: teloxide would send a
/// multipart form, needed only for a certificate upload.
async fn set_webhook(bot: &Bot, hook: &Webhook) -> Result<(), RequestError> {
    let payload = teloxide::payloads::SetWebhook::new(hook.url.clone()).secret_token(hook.secret.clone()).allowed_updates(ALLOWED_UPDATES);
    JsonRequest::new(bot.clone(), payload).await?;
    tracing::info!(url = %hook.url, "webhook set");
    Ok(())
}

/// Long polling: one `getUpdates` at a time, confirming what came before by its offset.
async fn poll(bot: Bot, tx: mpsc::Sender<Update>, metrics: Arc<Metrics>, mut stop: watch::Receiver<bool>) {
    let mut offset: i32 = 0;
    let mut backoff = Backoff::default();
    loop {
        let ask = bot.get_updates().offset(offset).timeout(POLL_TIMEOUT_SECS).allowed_updates(ALLOWED_UPDATES);
        // Dropping an unanswered `getUpdates` loses nothing: its updates were not confirmed.
        let answer = tokio::select! {
            a = ask.send() => a,
            _ = stopping(&mut stop) => return,
        };
        match answer {
            Ok(updates) => {
                reached(&metrics);
                backoff.reset();
                for update in updates {
                    offset = offset.max((update.id.0 as i32).wrapping_add(1));
                    if tx.send(update).await.is_err() {
                        return;
                    }
                }
            }
            Err(e) => {
                failed(&metrics, "getUpdates", &e);
                if !pause(backoff.next_delay(), &mut stop).await {
                    return;
                }
            }
        }
    }
}

/// On webhooks: checks in with `getWebhookInfo` (often while Telegram fails, every
/// `CHECK_IN_EVERY` while it answers), and sets the webhook again if it was removed or changed
/// (by a long-polling copy of the bot, say).
async fn check_in(bot: Bot, hook: Webhook, metrics: Arc<Metrics>, mut stop: watch::Receiver<bool>) {
    let mut backoff = Backoff::default();
    let mut wait = CHECK_IN_EVERY;
    loop {
        if !pause(wait, &mut stop).await {
            return;
        }
        let answer = match bot.get_webhook_info().await {
            Ok(info) if info.url.as_ref() == Some(&hook.url) => Ok(()),
            Ok(info) => {
                tracing::warn!(found = ?info.url.as_ref().map(|u| u.as_str()), "the webhook was changed elsewhere; setting it again");
                set_webhook(&bot, &hook).await.map_err(|e| ("setWebhook", e))
            }
            Err(e) => Err(("getWebhookInfo", e)),
        };
        match answer {
            Ok(()) => {
                reached(&metrics);
                backoff.reset();
                wait = CHECK_IN_EVERY;
            }
            Err((call, e)) => {
                failed(&metrics, call, &e);
                wait = backoff.next_delay();
            }
        }
    }
}

/// Forgets old update ids now and then (any replica may; they delete the same rows).
async fn prune(domain: Domain, mut stop: watch::Receiver<bool>) {
    loop {
        match bot_updates::prune(&domain).await {
            Ok(n) if n > 0 => tracing::debug!(rows = n, "old update ids pruned"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "pruning old update ids failed"),
        }
        if !pause(PRUNE_EVERY, &mut stop).await {
            return;
        }
    }
}

/// The dispatcher's update listener: reads the queue. When the process stops, it hands over
/// what is already queued (those updates were acknowledged to Telegram) and then ends, which
/// ends the dispatcher once its handlers finish.
struct QueueListener {
    rx: Arc<Mutex<mpsc::Receiver<Update>>>,
    stop: watch::Receiver<bool>,
    /// The dispatcher asks for one; shutdown goes through `stop` instead.
    token: StopToken,
}

impl QueueListener {
    fn new(rx: Arc<Mutex<mpsc::Receiver<Update>>>, stop: watch::Receiver<bool>) -> Self {
        QueueListener { rx, stop, token: mk_stop_token().0 }
    }
}

impl<'a> AsUpdateStream<'a> for QueueListener {
    type StreamErr = Infallible;
    type Stream = BoxStream<'a, Result<Update, Infallible>>;

    fn as_stream(&'a mut self) -> Self::Stream {
        let state = (self.rx.clone(), self.stop.clone(), false);
        Box::pin(futures_util::stream::unfold(state, |(rx, mut stop, draining)| async move {
            let mut queue = rx.lock().await;
            if !draining {
                tokio::select! {
                    biased;
                    next = queue.recv() => {
                        drop(queue);
                        return next.map(|u| (Ok(u), (rx, stop, false)));
                    }
                    _ = stopping(&mut stop) => {}
                }
            }
            let next = queue.try_recv().ok();
            drop(queue);
            next.map(|u| (Ok(u), (rx, stop, true)))
        }))
    }
}

impl UpdateListener for QueueListener {
    type Err = Infallible;

    fn stop_token(&mut self) -> StopToken {
        self.token.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_off_doubles_up_to_its_cap_and_starts_over_after_a_success() {
        let mut b = Backoff::default();
        let delays: Vec<u128> = (0..6).map(|_| b.next_delay().as_millis()).collect();
        assert_eq!(delays, [500, 1000, 2000, 4000, 5000, 5000]);
        b.reset();
        assert_eq!(b.next_delay(), BACKOFF_START);
    }
}
