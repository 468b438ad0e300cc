// GENERATED FILE: do not edit by hand.
// The types of the server's OpenAPI document (`fragbox openapi`, the same JSON as
// GET /api/v1/openapi.json), made by openapi-typescript. Regenerate after changing a route's
// documented shape: `cd webapp && npm run api:types` (FRAGBOX_BIN=<path to fragbox> to use a
// built binary). scripts/test.sh fails when this file differs from what the server documents.

export interface paths {
    "/auth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Signs in with Telegram's init data; answers a bearer token. */
        post: operations["sign_in"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revokes the bearer token of the request (the mini app's logout). */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The catalog's cases (public). Honors `If-None-Match`. */
        get: operations["list_cases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One case with its items and drop chances (public). */
        get: operations["get_case"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cases/{id}/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Opens a case, or `count` (1-5) of it at once: charges the price of all in one debit and
         *     answers the won items.
         */
        post: operations["open"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the mini app needs before sign-in. */
        get: operations["config"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/daily-reward/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether today's reward can be claimed. */
        get: operations["check"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/daily-reward/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Claims today's reward. */
        post: operations["claim"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/daily-reward/claim-streak-bonus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Claims the streak bonus. */
        post: operations["claim_bonus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/daily-reward/streak": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The daily streak. */
        get: operations["streak"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev-gate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Checks the dev-gate password and hands out a short-lived proof of it. */
        post: operations["dev_gate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/init-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Demo mode only: signed init data for a demo user (404 `not_found` with a bot token). */
        get: operations["demo_init_data"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/pay/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Demo mode only: pays a pending invoice (404 `not_found` with a bot token). */
        post: operations["demo_pay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fair": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The active seed's hash, the client seed, the nonce, and revealed seeds. */
        get: operations["state"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fair/client-seed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Reveals the active seed and starts a new one with this client seed. */
        put: operations["client_seed"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fair/opens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's past opens, newest first, with what verifies them. */
        get: operations["opens"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fair/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reveals the active seed and starts a new one. */
        post: operations["rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fair/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recomputes an open from its seeds (public). */
        get: operations["verify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live drop feed: `text/event-stream`. On connect the last 20 drops (or, with
         *     `Last-Event-ID`, every drop after that id), then each new drop as it happens: one event per
         *     drop, `id:` its id, `data:` `{id, item: {name, marketHashName, rarity, image, exterior?,
         *     statTrak?}, case: {id, name}, firstName?, openedAt}`, the names in the language the request's
         *     `Accept-Language` asks for (Russian when absent). A comment line every 15 s. The stream ends
         *     (and its connection closes) when the client falls more than 128 drops behind, when the
         *     player opens more streams than they may hold (their oldest ends), and after at most 30
         *     minutes; the client resumes with `Last-Event-ID`. An address holding as many streams as it
         *     may is refused with 429.
         */
        get: operations["stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/items/{id}/public": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public card of a shared skin: only after its owner shared it, while it can be shown (not
         *     sold or revoked) and with its owner's referral code; anything else is 404 `item_not_found`.
         *     Limited per address (the one limited read).
         */
        get: operations["public"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in player's profile. */
        get: operations["me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The daily spend limit (with a waiting raise), today's spending and the self-exclusion. */
        get: operations["limits"];
        /** Sets or removes the daily spend limit: lower at once, higher or none after 24 hours. */
        put: operations["set_limits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/self-exclusion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Starts a self-exclusion (a break from opens, purchases and promo codes). It cannot be
         *     shortened: one ending before the running one answers `409 self_exclusion_active`.
         */
        post: operations["self_exclusion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's own statistics: cases opened, tokens spent, tokens won back by selling, best drop. */
        get: operations["stats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. */
        get: operations["document_endpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/create-invoice-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Creates a Stars invoice link for a package (calls Telegram). */
        post: operations["create_invoice_link"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The token packages for Stars (needs a token, like every player endpoint). */
        get: operations["packages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/transaction-status/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A payment's status. */
        get: operations["transaction_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/promo/redeem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeems a promo code: its tokens are credited as bonus tokens, once per player. Answers in the
         *     daily claim's envelope: `{success, data: {tokensAwarded, balance}}`.
         */
        post: operations["redeem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sales/sell": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sells a `received` or `error` skin back for tokens. */
        post: operations["sell"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/savePreparedInlineMessage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Prepares a Telegram message showing one of the player's skins. */
        post: operations["share"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's feed setting. */
        get: operations["feed_settings"];
        /** Hides or shows the player's first name on their drops in the feed (shown by default). */
        put: operations["set_feed_settings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether maintenance is on. */
        get: operations["get_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/check-subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Checks the channel subscription with Telegram and pays its reward once. */
        post: operations["subscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/support/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's tickets (a bare array). */
        get: operations["list_tickets"];
        put?: never;
        /** Opens a ticket; it is forwarded to the admins. */
        post: operations["create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/support/tickets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One ticket. */
        get: operations["get_ticket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/support/tickets/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Closes the player's ticket. */
        post: operations["close"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/support/tickets/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A ticket's messages (a bare array). */
        get: operations["messages"];
        put?: never;
        /** Adds the player's message to an open ticket; it is forwarded to the admins. */
        post: operations["add_message"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/agreements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Records that the player accepted the terms and, with `{"adult": true}`, that they are 18 or
         *     older. The body is optional (an empty or absent one agrees to the terms only) but must be JSON.
         */
        post: operations["agree"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/check-agreements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the player accepted the terms and confirmed they are 18 or older. */
        get: operations["check_agreements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/item/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the player's skins. */
        get: operations["get_item"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/item/{id}/request-withdrawal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Asks for a skin to be sent to a Steam trade link. */
        post: operations["withdraw"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's skins (sold ones are gone), newest first. */
        get: operations["list_items"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/referrals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's invitees and earnings, a page at a time. */
        get: operations["referral_page"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Sets the player's language. */
        put: operations["settings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/trade-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's saved Steam trade link (null when none). */
        get: operations["trade_url"];
        /** Saves the player's Steam trade link. */
        put: operations["set_trade_url"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Added: {
            message: components["schemas"]["Message"];
            success: boolean;
        };
        Agreed: {
            /** @description The player confirmed they are 18 or older (asked beside the terms). */
            adult: boolean;
            agreed: boolean;
            success: boolean;
        };
        /** @description The documented body; the handler reads it from any JSON (older clients send `{}` or nothing). */
        AgreementBody: {
            /** @description `true`: the player confirms they are 18 or older (recorded once). */
            adult?: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_Awarded: {
            /** @description Tokens just credited (a daily reward, a streak bonus, a promo code) and the balance after. */
            data: {
                /** Format: double */
                balance: number;
                /** Format: double */
                tokensAwarded: number;
            };
            success: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_Check: {
            /** @description Whether today's reward can be claimed. */
            data: {
                available: boolean;
                /** @description RFC 3339. */
                nextClaimAt: string;
            };
            success: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_FairState: {
            /** @description The player's seeds: the active one (by its hash) and the revealed ones. */
            data: {
                clientSeed: string;
                /**
                 * Format: int64
                 * @description The nonce of the next open.
                 */
                nonce: number;
                revealed: components["schemas"]["RevealedSeed"][];
                serverSeedHash: string;
            };
            success: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_Limits: {
            /** @description The daily spend limit (with a waiting raise), today's spending and the self-exclusion. */
            data: {
                /**
                 * Format: double
                 * @description The daily spend limit in force, in tokens (null: none).
                 */
                dailyLimit?: number | null;
                /** @description When today's spending starts again from zero (next 00:00 UTC, RFC 3339). */
                dayResetsAt: string;
                pendingChange?: null | components["schemas"]["PendingChange"];
                selfExclusion: components["schemas"]["SelfExclusion"];
                /**
                 * Format: double
                 * @description Tokens opens debited today (UTC day).
                 */
                spentToday: number;
            };
            success: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_Stats: {
            /** @description The player's own figures. */
            data: {
                bestDrop?: null | components["schemas"]["ItemBody"];
                /** Format: int64 */
                casesOpened: number;
                /**
                 * Format: double
                 * @description Tokens debited by opens.
                 */
                tokensSpent: number;
                /**
                 * Format: double
                 * @description Tokens credited by selling skins back.
                 */
                tokensWonBack: number;
            };
            success: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_Streak: {
            /** @description The daily streak. */
            data: {
                bonusAlreadyClaimed: boolean;
                canClaimBonus: boolean;
                /** Format: int64 */
                currentStreak: number;
                hasStreak: boolean;
                /** @description The last claim's day (`YYYY-MM-DD`), null before the first. */
                lastClaim?: string | null;
                nextRewardAvailable: boolean;
                /**
                 * Format: double
                 * @description Tokens the streak bonus pays.
                 */
                streakBonusTokens: number;
                streakDays: components["schemas"]["StreakDay"][];
            };
            success: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_Subscription: {
            /** @description The channel check's outcome. */
            data: {
                subscribed: boolean;
                /**
                 * Format: double
                 * @description Tokens paid by this check (0 when not subscribed).
                 */
                tokensAwarded: number;
            };
            success: boolean;
        };
        /** @description `{"success": true, "data": …}`: most areas' envelope. */
        Answer_Verified: {
            /** @description A draw recomputed from its seeds. */
            data: {
                /** @description The float's exterior as Steam names it (`Field-Tested`); null without a float. */
                exterior?: string | null;
                /**
                 * Format: double
                 * @description The drop's float; null for a vanilla knife.
                 */
                float?: number | null;
                /** @description The drawn skin as `GET /cases/{id}` lists it. */
                item: components["schemas"]["CaseSkin"];
                /** Format: int64 */
                roll: number;
                serverSeedHash: string;
                statTrak: boolean;
                /** Format: int64 */
                totalWeight: number;
            };
            success: boolean;
        };
        /** @description Tokens just credited (a daily reward, a streak bonus, a promo code) and the balance after. */
        Awarded: {
            /** Format: double */
            balance: number;
            /** Format: double */
            tokensAwarded: number;
        };
        /** @description An item in the case list: only what a store card and the odds need (the list stays small). */
        CaseOdds: {
            /**
             * Format: double
             * @description Percent, rounded to 3 decimals: display only.
             */
            chance: number;
            id: string;
            rarity: string;
        };
        /** @description A skin of a case with its odds, as `GET /cases/{id}` and the fairness verifier show it. */
        CaseSkin: {
            /**
             * Format: double
             * @description Percent, rounded to 3 decimals: display only.
             */
            chance: number;
            condition: string;
            iconUrl: string;
            id: string;
            /** @description The skin's Steam name without StatTrak™ or exterior (`★ Karambit | Doppler`). */
            marketHashName: string;
            name: string;
            nameRu: string;
            /** Format: double */
            priceMax: number;
            /** Format: double */
            priceMin: number;
            rarity: string;
            statTrak: boolean;
            /**
             * Format: double
             * @description Expected value of a drop of this skin over its variants, in tokens.
             */
            tokenPrice: number;
            variant: string;
            variantRu: string;
            /** Format: double */
            wearMax?: number | null;
            /** Format: double */
            wearMin?: number | null;
            /**
             * Format: int64
             * @description The exact figure the draw uses.
             */
            weight: number;
        };
        /** @description Whether today's reward can be claimed. */
        Check: {
            available: boolean;
            /** @description RFC 3339. */
            nextClaimAt: string;
        };
        ClientSeed: {
            /** @description 1 to 64 of `[A-Za-z0-9_-]`. */
            clientSeed: string;
        };
        ConfigBody: {
            botUsername: string;
            channelUrl: string;
            communityUrl: string;
            demo: boolean;
            devGate: boolean;
            inviteLinkBase: string;
            privacyUrl: string;
            termsUrl: string;
            version: string;
            /** Format: int64 */
            withdrawMinStars: number;
            /**
             * @description `WITHDRAW_PAID_ONLY`: whether a skin won with bonus tokens stays in the shop (keep or
             *     sell, not withdraw). The mini app says so before an open that would spend bonus tokens.
             */
            withdrawPaidOnly: boolean;
        };
        Create: {
            /** Format: int64 */
            item_id?: number | null;
            /** @description 1 to 4000 characters; control and bidi-override characters are stripped. */
            message?: string;
            /** @description `payment`, `withdraw`, `bug` or `other`. */
            theme: string;
            /** @description At most 120 characters; control and bidi-override characters are stripped. */
            title?: string | null;
        };
        CreateInvoice: {
            init_data: string;
            pack_id: string;
            /** Format: int64 */
            telegram_id: number;
        };
        Created: {
            success: boolean;
            ticket: components["schemas"]["Ticket"];
        };
        /**
         * @description `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
         *     written (a tenth of the server's time on the inventory under load went to that tree).
         */
        Data_CaseBody_CaseSkin: {
            /**
             * @description A case of the store: its card (with each skin's `CaseOdds`) in the list, its page (with a
             *     `CaseSkin` each).
             *     Fields in the order of their names, as the catalog's JSON has always been written (the same
             *     bytes, so the same ETag, across versions).
             */
            data: {
                id: string;
                image: string;
                items: {
                    /**
                     * Format: double
                     * @description Percent, rounded to 3 decimals: display only.
                     */
                    chance: number;
                    condition: string;
                    iconUrl: string;
                    id: string;
                    /** @description The skin's Steam name without StatTrak™ or exterior (`★ Karambit | Doppler`). */
                    marketHashName: string;
                    name: string;
                    nameRu: string;
                    /** Format: double */
                    priceMax: number;
                    /** Format: double */
                    priceMin: number;
                    rarity: string;
                    statTrak: boolean;
                    /**
                     * Format: double
                     * @description Expected value of a drop of this skin over its variants, in tokens.
                     */
                    tokenPrice: number;
                    variant: string;
                    variantRu: string;
                    /** Format: double */
                    wearMax?: number | null;
                    /** Format: double */
                    wearMin?: number | null;
                    /**
                     * Format: int64
                     * @description The exact figure the draw uses.
                     */
                    weight: number;
                }[];
                name: string;
                nameRu: string;
                /**
                 * Format: double
                 * @description The price in tokens.
                 */
                tokens: number;
            };
        };
        /**
         * @description `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
         *     written (a tenth of the server's time on the inventory under load went to that tree).
         */
        Data_ReferralPage: {
            /** @description The player's invitees and earnings, one page. */
            data: {
                inviteLink: string;
                pagination: components["schemas"]["Pagination"];
                referralCode: string;
                referrals: components["schemas"]["Referral"][];
                stats: components["schemas"]["ReferralStats"];
            };
        };
        /**
         * @description `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
         *     written (a tenth of the server's time on the inventory under load went to that tree).
         */
        Data_Vec_CaseBody_CaseOdds: {
            data: {
                id: string;
                image: string;
                items: {
                    /**
                     * Format: double
                     * @description Percent, rounded to 3 decimals: display only.
                     */
                    chance: number;
                    id: string;
                    rarity: string;
                }[];
                name: string;
                nameRu: string;
                /**
                 * Format: double
                 * @description The price in tokens.
                 */
                tokens: number;
            }[];
        };
        /**
         * @description `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
         *     written (a tenth of the server's time on the inventory under load went to that tree).
         */
        Data_Vec_ItemBody: {
            data: {
                caseId?: string | null;
                condition: string;
                /**
                 * @description Automatic delivery of its latest withdrawal: `queued`, `buying`, `bought`, `offer_sent`,
                 *     `settling`, `settled`, `bounced`, `reversed`, `player_reversed`, `manual`; null for a
                 *     manual withdrawal or none.
                 */
                deliveryState?: string | null;
                /** @description Steam's exterior name (`Field-Tested`); null as for `float`. */
                exterior?: string | null;
                /**
                 * Format: double
                 * @description The drawn float; null for a vanilla ★ knife and for skins from before real goods.
                 */
                float?: number | null;
                iconUrl: string;
                /** Format: int64 */
                id: number;
                marketHashName: string;
                name: string;
                /** @description RFC 3339. */
                openedAt: string;
                owner: string;
                rarity: string;
                /** @description A ★ knife or gloves. */
                special: boolean;
                statTrak: boolean;
                /** @description `received`, `pending`, `sent`, `error`, `sold` or `revoked`. */
                status: string;
                /** @description The operator's optional note with that code. */
                statusReason?: string | null;
                /** @description Why a withdrawal failed (status `error`). */
                statusReasonCode?: string | null;
                /**
                 * Format: double
                 * @description Tokens (decimal, at most 2 places).
                 */
                tokenPrice: number;
                variant: string;
                weaponId: string;
                /** Format: double */
                wearMax?: number | null;
                /**
                 * Format: double
                 * @description The skin's float range (for the wear bar); null for a vanilla knife or an old skin.
                 */
                wearMin?: number | null;
                /** @description False for a skin won with bonus tokens while only paid value may leave. */
                withdrawable: boolean;
            }[];
        };
        /**
         * @description `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
         *     written (a tenth of the server's time on the inventory under load went to that tree).
         */
        Data_Vec_OpenRecord: {
            data: {
                caseId: string;
                clientSeed: string;
                /** @description RFC 3339. */
                createdAt: string;
                /** Format: int64 */
                id: number;
                /**
                 * Format: int64
                 * @description The inventory item it became (null when gone).
                 */
                inventoryId?: number | null;
                /** @description The catalog id of the drawn skin. */
                itemId: string;
                /** Format: int64 */
                nonce: number;
                /** Format: int64 */
                roll: number;
                /** @description Null until the seed is revealed. */
                serverSeed?: string | null;
                serverSeedHash: string;
                /** Format: int64 */
                totalWeight: number;
                /** @description The case's weight table at the open. */
                weights: components["schemas"]["WeightRow"][];
            }[];
        };
        /**
         * @description `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
         *     written (a tenth of the server's time on the inventory under load went to that tree).
         */
        Data_Vec_Package: {
            data: {
                /**
                 * Format: int64
                 * @description Whole bonus tokens on top.
                 */
                bonus: number;
                id: string;
                /** Format: int64 */
                stars: number;
                /**
                 * Format: int64
                 * @description Whole tokens.
                 */
                tokens: number;
            }[];
        };
        DemoInitData: {
            /** Format: int64 */
            demoId: number;
            initData: string;
        };
        DevGatePassed: {
            /**
             * Format: int64
             * @description Unix seconds. Absent when no gate is set.
             */
            expiresAt?: number | null;
            /** @description Send it as `X-Dev-Gate` on `GET /dev/init-data` and `POST /auth`. Absent when no gate is set. */
            proof?: string | null;
            success: boolean;
        };
        /**
         * @description Every refusal: `{"success":false,"error","message","code"}`; `code` is from the registry in
         *     docs/api.md.
         */
        ErrorBody: {
            /** @description The stable machine code. */
            code: string;
            /** @description The human text, in the request's `Accept-Language` (ru or en). */
            error: string;
            /**
             * Format: double
             * @description `spend_limit`: the daily limit in tokens.
             */
            limit?: number | null;
            /** @description The same text. */
            message: string;
            /** @description `self_excluded`, `self_exclusion_active`: the break has no end. */
            permanent?: boolean | null;
            /** @description `spend_limit`: when the day's spending starts from zero again (RFC 3339). */
            resetsAt?: string | null;
            /**
             * Format: double
             * @description `spend_limit`: tokens already spent on opens today (UTC day).
             */
            spent?: number | null;
            success: boolean;
            /** @description `self_excluded`, `self_exclusion_active`: the end of the break (RFC 3339), null when permanent. */
            until?: string | null;
        };
        /** @description The proof of one draw: recompute it with `GET /fair/verify`. */
        FairProof: {
            clientSeed: string;
            /** Format: int64 */
            nonce: number;
            /** Format: int64 */
            roll: number;
            serverSeedHash: string;
        };
        /** @description The player's seeds: the active one (by its hash) and the revealed ones. */
        FairState: {
            clientSeed: string;
            /**
             * Format: int64
             * @description The nonce of the next open.
             */
            nonce: number;
            revealed: components["schemas"]["RevealedSeed"][];
            serverSeedHash: string;
        };
        FeedSettings: {
            /** @description True: the player's drops show in the feed without their name. */
            hideName: boolean;
        };
        FeedSettingsAnswer: {
            hideName: boolean;
            success: boolean;
        };
        InvoiceCreated: {
            invoice_link: string;
            success: boolean;
            transaction_id: string;
        };
        /**
         * @description A skin of the player's inventory, as `GET /user/items` lists it and every answer that shows
         *     one of the player's skins (an open, a withdrawal, the best drop).
         */
        ItemBody: {
            caseId?: string | null;
            condition: string;
            /**
             * @description Automatic delivery of its latest withdrawal: `queued`, `buying`, `bought`, `offer_sent`,
             *     `settling`, `settled`, `bounced`, `reversed`, `player_reversed`, `manual`; null for a
             *     manual withdrawal or none.
             */
            deliveryState?: string | null;
            /** @description Steam's exterior name (`Field-Tested`); null as for `float`. */
            exterior?: string | null;
            /**
             * Format: double
             * @description The drawn float; null for a vanilla ★ knife and for skins from before real goods.
             */
            float?: number | null;
            iconUrl: string;
            /** Format: int64 */
            id: number;
            marketHashName: string;
            name: string;
            /** @description RFC 3339. */
            openedAt: string;
            owner: string;
            rarity: string;
            /** @description A ★ knife or gloves. */
            special: boolean;
            statTrak: boolean;
            /** @description `received`, `pending`, `sent`, `error`, `sold` or `revoked`. */
            status: string;
            /** @description The operator's optional note with that code. */
            statusReason?: string | null;
            /** @description Why a withdrawal failed (status `error`). */
            statusReasonCode?: string | null;
            /**
             * Format: double
             * @description Tokens (decimal, at most 2 places).
             */
            tokenPrice: number;
            variant: string;
            weaponId: string;
            /** Format: double */
            wearMax?: number | null;
            /**
             * Format: double
             * @description The skin's float range (for the wear bar); null for a vanilla knife or an old skin.
             */
            wearMin?: number | null;
            /** @description False for a skin won with bonus tokens while only paid value may leave. */
            withdrawable: boolean;
        };
        /** @description The daily spend limit (with a waiting raise), today's spending and the self-exclusion. */
        Limits: {
            /**
             * Format: double
             * @description The daily spend limit in force, in tokens (null: none).
             */
            dailyLimit?: number | null;
            /** @description When today's spending starts again from zero (next 00:00 UTC, RFC 3339). */
            dayResetsAt: string;
            pendingChange?: null | components["schemas"]["PendingChange"];
            selfExclusion: components["schemas"]["SelfExclusion"];
            /**
             * Format: double
             * @description Tokens opens debited today (UTC day).
             */
            spentToday: number;
        };
        /** @description A message of a ticket. */
        Message: {
            /** @description RFC 3339. */
            created_at: string;
            /** Format: int64 */
            id: number;
            message: string;
            /** @description `user` or `admin`. */
            sender: string;
        };
        NewMessage: {
            /** @description 1 to 4000 characters; control and bidi-override characters are stripped. */
            message?: string;
        };
        /** @description `{"success": true}`. */
        Ok: {
            success: boolean;
        };
        /** @description `{success, item}`: one of the player's skins, or the public card of one. */
        OneItem_ItemBody: {
            /**
             * @description A skin of the player's inventory, as `GET /user/items` lists it and every answer that shows
             *     one of the player's skins (an open, a withdrawal, the best drop).
             */
            item: {
                caseId?: string | null;
                condition: string;
                /**
                 * @description Automatic delivery of its latest withdrawal: `queued`, `buying`, `bought`, `offer_sent`,
                 *     `settling`, `settled`, `bounced`, `reversed`, `player_reversed`, `manual`; null for a
                 *     manual withdrawal or none.
                 */
                deliveryState?: string | null;
                /** @description Steam's exterior name (`Field-Tested`); null as for `float`. */
                exterior?: string | null;
                /**
                 * Format: double
                 * @description The drawn float; null for a vanilla ★ knife and for skins from before real goods.
                 */
                float?: number | null;
                iconUrl: string;
                /** Format: int64 */
                id: number;
                marketHashName: string;
                name: string;
                /** @description RFC 3339. */
                openedAt: string;
                owner: string;
                rarity: string;
                /** @description A ★ knife or gloves. */
                special: boolean;
                statTrak: boolean;
                /** @description `received`, `pending`, `sent`, `error`, `sold` or `revoked`. */
                status: string;
                /** @description The operator's optional note with that code. */
                statusReason?: string | null;
                /** @description Why a withdrawal failed (status `error`). */
                statusReasonCode?: string | null;
                /**
                 * Format: double
                 * @description Tokens (decimal, at most 2 places).
                 */
                tokenPrice: number;
                variant: string;
                weaponId: string;
                /** Format: double */
                wearMax?: number | null;
                /**
                 * Format: double
                 * @description The skin's float range (for the wear bar); null for a vanilla knife or an old skin.
                 */
                wearMin?: number | null;
                /** @description False for a skin won with bonus tokens while only paid value may leave. */
                withdrawable: boolean;
            };
            success: boolean;
        };
        /** @description `{success, item}`: one of the player's skins, or the public card of one. */
        OneItem_PublicItem: {
            /**
             * @description What anyone may see of a shared skin: a projection of the item (no status, no delivery, the
             *     owner's first name only).
             */
            item: {
                condition: string;
                exterior?: string | null;
                /** Format: double */
                float?: number | null;
                iconUrl: string;
                /** Format: int64 */
                id: number;
                marketHashName: string;
                name: string;
                /** @description The owner's first name. */
                owner: string;
                rarity: string;
                special: boolean;
                statTrak: boolean;
                /** Format: double */
                tokenPrice: number;
                variant: string;
                weaponId: string;
                /** Format: double */
                wearMax?: number | null;
                /** Format: double */
                wearMin?: number | null;
            };
            success: boolean;
        };
        OpenCase: {
            /**
             * Format: int64
             * @description How many of this case to open at once (absent: 1). One debit of `count` × price, all or
             *     none; above 1 the answer lists every item in `items`. Counts as `count` opens for the
             *     rate limit.
             */
            count?: number | null;
            /** @description Idempotency key: a retried request answers the first result. */
            requestId?: string | null;
            /**
             * Format: int64
             * @description If sent, must be the signed-in user's id.
             */
            telegramId?: number | null;
        };
        /** @description A past open and what verifies it. */
        OpenRecord: {
            caseId: string;
            clientSeed: string;
            /** @description RFC 3339. */
            createdAt: string;
            /** Format: int64 */
            id: number;
            /**
             * Format: int64
             * @description The inventory item it became (null when gone).
             */
            inventoryId?: number | null;
            /** @description The catalog id of the drawn skin. */
            itemId: string;
            /** Format: int64 */
            nonce: number;
            /** Format: int64 */
            roll: number;
            /** @description Null until the seed is revealed. */
            serverSeed?: string | null;
            serverSeedHash: string;
            /** Format: int64 */
            totalWeight: number;
            /** @description The case's weight table at the open. */
            weights: components["schemas"]["WeightRow"][];
        };
        /**
         * @description The answer to an open. `item` and `fair` describe the first case opened. A retried request
         *     (the same `requestId`) answers the first answer again, as it was then.
         */
        OpenedBody: {
            /**
             * Format: double
             * @description The balance after the open, in tokens.
             */
            balance: number;
            fair: components["schemas"]["FairProof"];
            item: components["schemas"]["ItemBody"];
            /** @description Only when `count` was above 1: every case opened, in draw order (consecutive nonces). */
            items?: components["schemas"]["OpenedItem"][] | null;
            success: boolean;
        };
        /** @description One drawn item of an open and its proof. */
        OpenedItem: {
            fair: components["schemas"]["FairProof"];
            /** @description The won item, as in `GET /user/items`. */
            item: components["schemas"]["ItemBody"];
        };
        /** @description A token package for Stars. */
        Package: {
            /**
             * Format: int64
             * @description Whole bonus tokens on top.
             */
            bonus: number;
            id: string;
            /** Format: int64 */
            stars: number;
            /**
             * Format: int64
             * @description Whole tokens.
             */
            tokens: number;
        };
        Pagination: {
            /** Format: int64 */
            limit: number;
            /** Format: int64 */
            page: number;
            /** Format: int64 */
            total: number;
            /** Format: int64 */
            totalPages: number;
        };
        Password: {
            password: string;
        };
        PaymentStatus: {
            /** @description `pending`, `success`, `failed` or `refunded`. */
            status: string;
            success: boolean;
        };
        PendingChange: {
            /** Format: double */
            dailyLimit?: number | null;
            /** @description RFC 3339. */
            effectiveAt: string;
        };
        Prepared: {
            /** @description The prepared message's id for `shareMessage`. */
            id: string;
            success: boolean;
        };
        /** @description The signed-in player's profile (`GET /me`, sign-in). */
        ProfileBody: {
            avatarUrl?: string | null;
            /**
             * Format: double
             * @description Tokens (decimal, at most 2 places).
             */
            balance: number;
            /**
             * Format: double
             * @description The part of `balance` that came free: skins won with it can be kept and sold, not withdrawn.
             */
            bonusBalance: number;
            caseOpened: boolean;
            /**
             * Format: double
             * @description Owed after a refunded purchase; later credits repay it first (0 when none).
             */
            debt: number;
            demo: boolean;
            firstName: string;
            isAdmin: boolean;
            /** @description `ru` or `en`. */
            language: string;
            lastName: string;
            /** @description The player's referral code. */
            ref: string;
            /**
             * Format: int64
             * @description Stars of purchases still needed before withdrawals unlock (0 when met or off).
             */
            starsToUnlockWithdrawals: number;
            /** Format: int64 */
            telegramId: number;
            tgSubscribed: boolean;
            trade_url?: string | null;
            username?: string | null;
            /** @description False while a debt is open or the paid-deposit rule is not met yet. */
            withdrawalsUnlocked: boolean;
        };
        /**
         * @description What anyone may see of a shared skin: a projection of the item (no status, no delivery, the
         *     owner's first name only).
         */
        PublicItem: {
            condition: string;
            exterior?: string | null;
            /** Format: double */
            float?: number | null;
            iconUrl: string;
            /** Format: int64 */
            id: number;
            marketHashName: string;
            name: string;
            /** @description The owner's first name. */
            owner: string;
            rarity: string;
            special: boolean;
            statTrak: boolean;
            /** Format: double */
            tokenPrice: number;
            variant: string;
            weaponId: string;
            /** Format: double */
            wearMax?: number | null;
            /** Format: double */
            wearMin?: number | null;
        };
        Redeem: {
            /** @description The code, in any case (matched case-insensitively). */
            code: string;
        };
        /** @description One invitee. */
        Referral: {
            avatarUrl?: string | null;
            /** @description RFC 3339; null before their first open. */
            firstCaseOpenedAt?: string | null;
            firstName: string;
            /** @description RFC 3339. */
            joinedAt: string;
            lastName: string;
            /** Format: int64 */
            telegramId: number;
            /** Format: double */
            tokensEarned: number;
            username?: string | null;
        };
        /** @description The player's invitees and earnings, one page. */
        ReferralPage: {
            inviteLink: string;
            pagination: components["schemas"]["Pagination"];
            referralCode: string;
            referrals: components["schemas"]["Referral"][];
            stats: components["schemas"]["ReferralStats"];
        };
        ReferralStats: {
            /**
             * Format: int64
             * @description Invitees who opened a case.
             */
            activeUsers: number;
            /** Format: int64 */
            invitedCount: number;
            /** Format: double */
            totalEarned: number;
        };
        Requested: {
            /** @description The skin, now `pending`. */
            item: components["schemas"]["ItemBody"];
            success: boolean;
            /** Format: int64 */
            withdrawalId: number;
        };
        /** @description A server seed after its rotation, with the opens it served. */
        RevealedSeed: {
            clientSeed: string;
            /** Format: int64 */
            firstNonce: number;
            /**
             * Format: int64
             * @description Null when no open used the seed.
             */
            lastNonce?: number | null;
            /** @description RFC 3339. */
            revealedAt: string;
            serverSeed: string;
            serverSeedHash: string;
        };
        SelfExclusion: {
            active: boolean;
            permanent: boolean;
            /** @description The end (RFC 3339); null while none runs or for a permanent one. */
            until?: string | null;
        };
        SelfExclusionBody: {
            /** @description How long: `24h`, `7d`, `30d` or `permanent` (a permanent one is lifted only by an admin). */
            period: string;
        };
        Sell: {
            /** Format: int64 */
            item_id: number;
        };
        SetLimits: {
            /**
             * Format: int64
             * @description Tokens per UTC day, a whole number from 1; null removes the limit. Lowering takes effect
             *     at once; raising or removing after 24 hours.
             */
            dailyLimit: number | null;
        };
        Settings: {
            /** @description `ru` or `en`. */
            language: string;
        };
        Share: {
            /** Format: int64 */
            item_id: number;
        };
        SignIn: {
            initData: string;
        };
        SignedIn: {
            /** @description The bearer token for `Authorization: Bearer`. */
            token: string;
            /** @description The profile, as `GET /me` answers it. */
            user: components["schemas"]["ProfileBody"];
        };
        SoldBody: {
            /** Format: double */
            balance: number;
            success: boolean;
            /**
             * Format: double
             * @description Tokens (decimal, at most 2 places).
             */
            tokensAwarded: number;
        };
        /** @description The player's own figures. */
        Stats: {
            bestDrop?: null | components["schemas"]["ItemBody"];
            /** Format: int64 */
            casesOpened: number;
            /**
             * Format: double
             * @description Tokens debited by opens.
             */
            tokensSpent: number;
            /**
             * Format: double
             * @description Tokens credited by selling skins back.
             */
            tokensWonBack: number;
        };
        StatusBody: {
            maintenance: boolean;
        };
        /** @description The daily streak. */
        Streak: {
            bonusAlreadyClaimed: boolean;
            canClaimBonus: boolean;
            /** Format: int64 */
            currentStreak: number;
            hasStreak: boolean;
            /** @description The last claim's day (`YYYY-MM-DD`), null before the first. */
            lastClaim?: string | null;
            nextRewardAvailable: boolean;
            /**
             * Format: double
             * @description Tokens the streak bonus pays.
             */
            streakBonusTokens: number;
            streakDays: components["schemas"]["StreakDay"][];
        };
        /** @description One day of the streak's cycle. */
        StreakDay: {
            claimed: boolean;
            /** @description `YYYY-MM-DD`. */
            date: string;
        };
        /** @description The channel check's outcome. */
        Subscription: {
            subscribed: boolean;
            /**
             * Format: double
             * @description Tokens paid by this check (0 when not subscribed).
             */
            tokensAwarded: number;
        };
        /** @description `{"status": "success", "data": …}` (the profile's envelope), written the same way. */
        Success_ProfileBody: {
            /** @description The signed-in player's profile (`GET /me`, sign-in). */
            data: {
                avatarUrl?: string | null;
                /**
                 * Format: double
                 * @description Tokens (decimal, at most 2 places).
                 */
                balance: number;
                /**
                 * Format: double
                 * @description The part of `balance` that came free: skins won with it can be kept and sold, not withdrawn.
                 */
                bonusBalance: number;
                caseOpened: boolean;
                /**
                 * Format: double
                 * @description Owed after a refunded purchase; later credits repay it first (0 when none).
                 */
                debt: number;
                demo: boolean;
                firstName: string;
                isAdmin: boolean;
                /** @description `ru` or `en`. */
                language: string;
                lastName: string;
                /** @description The player's referral code. */
                ref: string;
                /**
                 * Format: int64
                 * @description Stars of purchases still needed before withdrawals unlock (0 when met or off).
                 */
                starsToUnlockWithdrawals: number;
                /** Format: int64 */
                telegramId: number;
                tgSubscribed: boolean;
                trade_url?: string | null;
                username?: string | null;
                /** @description False while a debt is open or the paid-deposit rule is not met yet. */
                withdrawalsUnlocked: boolean;
            };
            /** @description Always `success`. */
            status: string;
        };
        /** @description A ticket. */
        Ticket: {
            /** @description RFC 3339. */
            created_at: string;
            /** Format: int64 */
            id: number;
            /** @description `open` or `closed`. */
            status: string;
            /** @description `payment`, `withdraw`, `bug` or `other`. */
            theme: string;
            title?: string | null;
        };
        /** @description A ticket in the player's list, with its last message. */
        TicketSummary: {
            /** @description RFC 3339. */
            created_at: string;
            /** Format: int64 */
            id: number;
            lastMessage: string;
            status: string;
            theme: string;
            title?: string | null;
        };
        TradeUrlAnswer: {
            success: boolean;
            tradeUrl?: string | null;
        };
        TradeUrlBody: {
            tradeUrl: string;
        };
        /** @description A draw recomputed from its seeds. */
        Verified: {
            /** @description The float's exterior as Steam names it (`Field-Tested`); null without a float. */
            exterior?: string | null;
            /**
             * Format: double
             * @description The drop's float; null for a vanilla knife.
             */
            float?: number | null;
            /** @description The drawn skin as `GET /cases/{id}` lists it. */
            item: components["schemas"]["CaseSkin"];
            /** Format: int64 */
            roll: number;
            serverSeedHash: string;
            statTrak: boolean;
            /** Format: int64 */
            totalWeight: number;
        };
        /** @description One skin's weight in a case's table. */
        WeightRow: {
            id: string;
            /** Format: int64 */
            weight: number;
        };
        Withdraw: {
            trade_url: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    sign_in: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_init_data`, `init_data_expired` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `dev_gate_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_cases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Data_Vec_CaseBody_CaseOdds"];
                };
            };
            /** @description Not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_case: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Case id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Data_CaseBody_CaseSkin"];
                };
            };
            /** @description `case_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    open: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Case id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OpenCase"];
            };
        };
        responses: {
            /** @description The open: `{success, item, balance, fair}`, and `items` for several */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenedBody"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `forbidden`, `self_excluded` (with `until`), `spend_limit` (with `limit`, `spent`, `resetsAt`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `case_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_tokens` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    config: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigBody"];
                };
            };
        };
    };
    check: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Check"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    claim: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Awarded"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `already_claimed` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    claim_bonus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Awarded"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `bonus_not_available` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    streak: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Streak"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    dev_gate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Password"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevGatePassed"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `wrong_password` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` (wrong guesses per address) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    demo_init_data: {
        parameters: {
            query?: {
                /** @description A demo user's id to sign in again (any other value: a new demo user). */
                demoId?: number;
                /** @description Up to 512 of `[A-Za-z0-9_-]`. */
                startParam?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DemoInitData"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `dev_gate_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `not_found` (not demo mode) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    demo_pay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Transaction id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentStatus"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `self_excluded` (with `until`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `not_found`, `transaction_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` (a payment is a state change) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    state: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_FairState"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    client_seed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientSeed"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_FairState"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_client_seed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    opens: {
        parameters: {
            query?: {
                /** @description From 1 to 1000000 (default 1). */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Data_Vec_OpenRecord"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_FairState"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    verify: {
        parameters: {
            query: {
                server_seed: string;
                client_seed: string;
                nonce: number;
                case_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Verified"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `case_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_client_seed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    stream: {
        parameters: {
            query?: never;
            header?: {
                /** @description The id of the last event received: resume after it */
                "Last-Event-ID"?: number | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of drops (Server-Sent Events), ended after at most 30 minutes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `too_many_streams`: the client's address holds as many streams as it may; `Retry-After` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    public: {
        parameters: {
            query: {
                /** @description The owner's referral code, as the shared link carries it. */
                ref: string;
            };
            header?: never;
            path: {
                /** @description Item id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OneItem_PublicItem"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `item_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Success_ProfileBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    limits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Limits"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    set_limits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetLimits"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Limits"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_limit` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    self_exclusion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SelfExclusionBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Limits"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `self_exclusion_active` (with `until`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    stats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Stats"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    document_endpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    create_invoice_link: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvoice"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceCreated"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized`, `invalid_init_data`, `init_data_expired` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `forbidden`, `self_excluded` (with `until`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `pack_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `telegram_unavailable` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    packages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Data_Vec_Package"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    transaction_status: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Transaction id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentStatus"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `transaction_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    redeem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Redeem"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Awarded"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `self_excluded` (with `until`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `promo_not_found` (a disabled code too) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `promo_exhausted`, `promo_already_redeemed`, `deposit_required` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `promo_expired` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    sell: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Sell"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SoldBody"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `item_not_found` (not the player's) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `item_not_available` (the player's, but sold, pending, sent or revoked) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    share: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Share"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Prepared"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `share_unavailable` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `telegram_unavailable` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    feed_settings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedSettingsAnswer"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    set_feed_settings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedSettings"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedSettingsAnswer"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_status: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusBody"];
                };
            };
        };
    };
    subscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer_Subscription"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `already_claimed` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `subscription_check_failed` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_tickets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketSummary"][];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Create"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `item_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `too_many_tickets` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_theme`, `empty_message`, `item_required`, `too_long` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_ticket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ticket id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `ticket_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    close: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ticket id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `ticket_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `ticket_closed` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    messages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ticket id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"][];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `ticket_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    add_message: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ticket id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewMessage"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Added"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `ticket_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `ticket_closed` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `empty_message`, `too_long` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    agree: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": null | components["schemas"]["AgreementBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agreed"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    check_agreements: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agreed"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_item: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Item id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OneItem_ItemBody"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `item_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    withdraw: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Item id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Withdraw"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Requested"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `item_not_found` (not the player's) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `item_not_available` (the player's, but sold, pending, sent or revoked), `debt_outstanding`, `bonus_item` (won with bonus tokens), `deposit_required` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_trade_url` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_items: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Data_Vec_ItemBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    referral_page: {
        parameters: {
            query?: {
                /** @description From 1 to 1000000 (default 1). */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Data_ReferralPage"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    settings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Settings"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_language` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    trade_url: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TradeUrlAnswer"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    set_trade_url: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TradeUrlBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TradeUrlAnswer"];
                };
            };
            /** @description `bad_request` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unauthorized` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invalid_trade_url` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `maintenance` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
