-- The inventory as players list it (`GET /user/items`): their live skins, newest first. The
-- index on (user_id, status, id) made every list walk the player's sold skins too and sort the
-- rest in a temporary B-tree; this one holds only live skins in id order, so a list reads just
-- what it answers, already sorted. Measured in docs/performance.md ("The inventory list").
CREATE INDEX inventory_live ON inventory_items(user_id, id) WHERE status NOT IN ('sold', 'revoked');
