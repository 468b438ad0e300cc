//! Integration tests: one binary (one link step) with a module per area.
#![allow(dead_code)]
mod common;
mod fake_bot_api;
mod fake_cdn;
mod fake_market;

mod abuse;
mod admin;
mod audit;
mod backbone;
mod bot_runtime;
mod crash;
mod delivery;
mod economics;
mod economy;
mod edge;
mod feed;
mod goods;
mod hardening;
mod market;
mod members;
mod money;
mod moving;
mod multi;
mod operator;
mod paid;
mod payments;
mod pictures;
mod promo;
mod refunds;
mod replicas;
mod reprice;
mod responsible;
mod rewards;
mod statics;
mod support;
mod writer;
