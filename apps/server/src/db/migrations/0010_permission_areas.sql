-- A ΔΕΥΑ separates the meter reader from the billing clerk and the cashier from the accountant:
-- the water module's permissions become four areas and finance's two, each group keeping its level.
INSERT INTO "user_group_permissions" ("group_id", "permission")
SELECT p."group_id", area.name || substr(p."permission", length('water') + 1)
FROM "user_group_permissions" p
CROSS JOIN (VALUES ('consumers'), ('readouts'), ('billing'), ('collections')) AS area(name)
WHERE p."permission" LIKE 'water:%'
ON CONFLICT DO NOTHING;--> statement-breakpoint
DELETE FROM "user_group_permissions" WHERE "permission" LIKE 'water:%';--> statement-breakpoint
INSERT INTO "user_group_permissions" ("group_id", "permission")
SELECT p."group_id", 'mydata' || substr(p."permission", length('finance') + 1)
FROM "user_group_permissions" p
WHERE p."permission" LIKE 'finance:%'
ON CONFLICT DO NOTHING;
