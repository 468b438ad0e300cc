//! Support tickets. The lists are bare arrays, as the spec's client reads them.
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{OpenApi, ToSchema};

use crate::domain::tickets::{self, Closer, NewTicket};
use crate::http::dto::{ErrorBody, Ok as OkBody};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AppPath, AuthUser, OptionalJson};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(list, create, one, messages, add_message, close))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/support/tickets", get(list).post(create))
        .route("/support/tickets/{id}", get(one))
        .route("/support/tickets/{id}/messages", get(messages).post(add_message))
        .route("/support/tickets/{id}/close", post(close))
}

/// A ticket.
#[derive(Serialize, ToSchema)]
pub struct Ticket {
    id: i64,
    title: Option<String>,
    /// `payment`, `withdraw`, `bug` or `other`.
    theme: String,
    /// `open` or `closed`.
    status: String,
    /// RFC 3339.
    created_at: String,
}

impl From<tickets::Ticket> for Ticket {
    fn from(t: tickets::Ticket) -> Ticket {
        Ticket { id: t.id, title: t.title, theme: t.theme, status: t.status, created_at: t.created_at }
    }
}

/// A ticket in the player's list, with its last message.
#[derive(Serialize, ToSchema)]
pub struct TicketSummary {
    id: i64,
    title: Option<String>,
    theme: String,
    status: String,
    #[serde(rename = "lastMessage")]
    last_message: String,
    /// RFC 3339.
    created_at: String,
}

impl From<tickets::TicketSummary> for TicketSummary {
    fn from(t: tickets::TicketSummary) -> TicketSummary {
        TicketSummary { id: t.id, title: t.title, theme: t.theme, status: t.status, last_message: t.last_message, created_at: t.created_at }
    }
}

/// A message of a ticket.
#[derive(Serialize, ToSchema)]
pub struct Message {
    id: i64,
    /// `user` or `admin`.
    sender: String,
    message: String,
    /// RFC 3339.
    created_at: String,
}

impl From<tickets::Message> for Message {
    fn from(m: tickets::Message) -> Message {
        Message { id: m.id, sender: m.sender, message: m.message, created_at: m.created_at }
    }
}

#[derive(Serialize, ToSchema)]
pub struct Created {
    success: bool,
    ticket: Ticket,
}

#[derive(Serialize, ToSchema)]
pub struct Added {
    success: bool,
    message: Message,
}

/// The player's tickets (a bare array).
#[utoipa::path(get, path = "/support/tickets", tag = "support", operation_id = "list_tickets", security(("bearer" = [])),
    responses((status = 200, body = Vec<TicketSummary>)))]
pub async fn list(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Vec<TicketSummary>>, ApiError> {
    Ok(Json(tickets::list(&app.domain, id).await?.into_iter().map(TicketSummary::from).collect()))
}

#[derive(Deserialize, ToSchema)]
pub struct Create {
    /// `payment`, `withdraw`, `bug` or `other`.
    #[schema(pattern = "^(payment|withdraw|bug|other)$")]
    theme: String,
    #[serde(default, deserialize_with = "crate::http::extract::int::optional")]
    item_id: Option<i64>,
    /// At most 120 characters; control and bidi-override characters are stripped.
    #[schema(max_length = 120)]
    title: Option<String>,
    /// 1 to 4000 characters; control and bidi-override characters are stripped.
    #[serde(default)]
    #[schema(max_length = 4000)]
    message: String,
}

/// Opens a ticket; it is forwarded to the admins.
#[utoipa::path(post, path = "/support/tickets", tag = "support", request_body = Create, security(("bearer" = [])),
    responses((status = 200, body = Created, links(
            ("ticket" = (operation_id = "get_ticket", parameters(("id" = "$response.body#/ticket/id")))),
            ("messages" = (operation_id = "messages", parameters(("id" = "$response.body#/ticket/id")))),
            ("reply" = (operation_id = "add_message", parameters(("id" = "$response.body#/ticket/id")))),
            ("close" = (operation_id = "close", parameters(("id" = "$response.body#/ticket/id")))))), (status = 404, description = "`item_not_found`", body = ErrorBody),
        (status = 409, description = "`too_many_tickets`", body = ErrorBody),
        (status = 422, description = "`invalid_theme`, `empty_message`, `item_required`, `too_long`", body = ErrorBody)))]
pub async fn create(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Create>) -> Result<Json<Created>, ApiError> {
    let new = NewTicket { theme: b.theme, item_id: b.item_id, title: b.title, message: b.message };
    Ok(Json(Created { success: true, ticket: tickets::create(&app.domain, id, new).await?.into() }))
}

/// One ticket.
#[utoipa::path(get, path = "/support/tickets/{id}", tag = "support", operation_id = "get_ticket", params(("id" = i64, Path, description = "Ticket id")), security(("bearer" = [])),
    responses((status = 200, body = Ticket), (status = 400, description = "`bad_request`", body = ErrorBody), (status = 404, description = "`ticket_not_found`", body = ErrorBody)))]
pub async fn one(State(app): State<AppState>, AuthUser(id): AuthUser, AppPath(ticket): AppPath<i64>) -> Result<Json<Ticket>, ApiError> {
    Ok(Json(tickets::get(&app.domain, id, ticket).await?.into()))
}

/// A ticket's messages (a bare array).
#[utoipa::path(get, path = "/support/tickets/{id}/messages", tag = "support", params(("id" = i64, Path, description = "Ticket id")),
    security(("bearer" = [])),
    responses((status = 200, body = Vec<Message>), (status = 400, description = "`bad_request`", body = ErrorBody), (status = 404, description = "`ticket_not_found`", body = ErrorBody)))]
pub async fn messages(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppPath(ticket): AppPath<i64>,
) -> Result<Json<Vec<Message>>, ApiError> {
    Ok(Json(tickets::messages(&app.domain, id, ticket).await?.into_iter().map(Message::from).collect()))
}

#[derive(Deserialize, ToSchema)]
pub struct NewMessage {
    /// 1 to 4000 characters; control and bidi-override characters are stripped.
    #[serde(default)]
    #[schema(max_length = 4000)]
    message: String,
}

/// Adds the player's message to an open ticket; it is forwarded to the admins.
#[utoipa::path(post, path = "/support/tickets/{id}/messages", tag = "support", params(("id" = i64, Path, description = "Ticket id")),
    request_body = NewMessage, security(("bearer" = [])),
    responses((status = 200, body = Added), (status = 404, description = "`ticket_not_found`", body = ErrorBody),
        (status = 409, description = "`ticket_closed`", body = ErrorBody),
        (status = 422, description = "`empty_message`, `too_long`", body = ErrorBody)))]
pub async fn add_message(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppPath(ticket): AppPath<i64>,
    AppJson(b): AppJson<NewMessage>,
) -> Result<Json<Added>, ApiError> {
    Ok(Json(Added { success: true, message: tickets::add_message(&app.domain, id, ticket, &b.message).await?.into() }))
}

/// Closes the player's ticket.
#[utoipa::path(post, path = "/support/tickets/{id}/close", tag = "support", params(("id" = i64, Path, description = "Ticket id")),
    security(("bearer" = [])),
    responses((status = 200, body = OkBody), (status = 400, description = "`bad_request`", body = ErrorBody), (status = 404, description = "`ticket_not_found`", body = ErrorBody),
        (status = 409, description = "`ticket_closed`", body = ErrorBody)))]
pub async fn close(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppPath(ticket): AppPath<i64>,
    _b: OptionalJson<Value>,
) -> Result<Json<OkBody>, ApiError> {
    tickets::close(&app.domain, Closer::Player(id), ticket).await?;
    Ok(Json(OkBody::YES))
}
