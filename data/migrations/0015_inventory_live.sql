-- The inventory as players list it (`GET /user/items`): their live skins, newest first. The
-- index on (user_id, status, id) made every list walk the player's sold skins too, sort the rest
-- in a temporary B-tree, and fetch each row from a different table page (rows of all players
-- interleave in id order), every page read anew after any write (a WAL reader's page cache is
-- reset whenever another connection committed). This index holds only live skins, in id order,
-- with every column the list reads: a list of 100 skins reads a handful of index pages instead
-- of ~100 table pages, already sorted. `inventory::tests` checks the list stays covered by it.
-- Measured in docs/performance.md ("The inventory list").
CREATE INDEX inventory_live ON inventory_items(
    user_id, id, catalog_item_id, weapon, finish, image, token_price, rarity, condition, status, status_reason,
    case_id, created_at, status_reason_code, float, exterior, stat_trak, market_hash_name, bonus_cost
) WHERE status NOT IN ('sold', 'revoked');
