//! Integration tests: one binary (one link step) with a module per area.
#![allow(dead_code)]
mod common;
mod fake_bot_api;

mod abuse;
mod admin;
mod backbone;
mod crash;
mod economy;
mod operator;
mod payments;
mod rewards;
mod statics;
mod support;
