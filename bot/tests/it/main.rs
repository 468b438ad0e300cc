//! Integration tests: one binary (one link step) with a module per area.
#![allow(dead_code)]
mod common;
mod fake_bot_api;

mod backbone;
mod economy;
mod operator;
mod rewards;
mod admin;
mod payments;
mod support;
mod abuse;
mod crash;
