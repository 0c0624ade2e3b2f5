DROP INDEX "payments_bank_lines_reference";--> statement-breakpoint
DROP INDEX "payments_bank_lines_unmatched_idx";--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ALTER COLUMN "bank_reference" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ALTER COLUMN "amount" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ALTER COLUMN "date" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments_bank_files" ADD COLUMN "content" "bytea";--> statement-breakpoint
ALTER TABLE "payments_bank_files" ADD COLUMN "summary" jsonb;--> statement-breakpoint
ALTER TABLE "payments_bank_layouts" ADD COLUMN "decimal_comma" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ADD COLUMN "raw" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ADD COLUMN "consumer_id" integer;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ADD CONSTRAINT "payments_bank_lines_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_bank_lines_reference" ON "payments_bank_lines" USING btree ("company_id","bank_reference") WHERE status NOT IN ('duplicate', 'invalid');--> statement-breakpoint
CREATE INDEX "payments_bank_lines_unmatched_idx" ON "payments_bank_lines" USING btree ("company_id","date") WHERE status = 'unmatched';--> statement-breakpoint
-- Companies made before the bank imports get the layouts a new company gets (contracts defaultBankLayouts).
INSERT INTO "payments_bank_layouts" ("company_id", "code", "descr", "format", "separator", "header_lines", "record_prefix", "amount_in_cents", "decimal_comma", "date_format", "fields", "createuser")
SELECT c.id, d.code, d.descr, d.format, ';', d.header_lines, d.prefix, d.cents, d.comma, d.date_format, d.fields::jsonb, 'system'
  FROM "companies" c
 CROSS JOIN (VALUES
   ('CSV', 'Αρχείο CSV πληρωμών RF (e-banking)', 'csv', 1, '', false, true, 'DD/MM/YYYY',
    '[{"field":"reference","column":1,"start":null,"length":null},{"field":"date","column":2,"start":null,"length":null},{"field":"rfCode","column":3,"start":null,"length":null},{"field":"amount","column":4,"start":null,"length":null},{"field":"payer","column":5,"start":null,"length":null}]'),
   ('FIXED', 'Αρχείο σταθερού μήκους τραπεζών (εγγραφές τύπου 2)', 'fixed', 0, '2', true, false, 'YYYYMMDD',
    '[{"field":"reference","column":null,"start":2,"length":20},{"field":"date","column":null,"start":22,"length":8},{"field":"rfCode","column":null,"start":30,"length":25},{"field":"amount","column":null,"start":55,"length":15},{"field":"payer","column":null,"start":70,"length":40}]')
 ) AS d(code, descr, format, header_lines, prefix, cents, comma, date_format, fields)
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The collections area was never used (the cashier and the banks are payments:*): a group keeps its
-- level as payments, and collections is gone.
INSERT INTO "user_group_permissions" ("group_id", "permission")
SELECT "group_id", 'payments' || substr("permission", length('collections') + 1)
  FROM "user_group_permissions" WHERE "permission" LIKE 'collections:%'
ON CONFLICT DO NOTHING;--> statement-breakpoint
DELETE FROM "user_group_permissions" WHERE "permission" LIKE 'collections:%';
