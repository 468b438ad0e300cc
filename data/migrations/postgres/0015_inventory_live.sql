-- The inventory as players list it (`GET /user/items`): their live skins, newest first. The
-- index on (user_id, status, id) made every list walk the player's sold skins too and sort the
-- rest; this one holds only live skins in id order. (SQLite's twin also carries the listed
-- columns, to spare its readers a table page per skin; PostgreSQL's heap fetches go through its
-- shared buffers, which a commit does not drop.)
CREATE INDEX inventory_live ON inventory_items(user_id, id) WHERE status NOT IN ('sold', 'revoked');
