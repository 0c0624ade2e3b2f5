DROP INDEX "billing_bills_corrects";--> statement-breakpoint
DROP INDEX "billing_bills_replaces";--> statement-breakpoint
DROP INDEX "billing_bills_number";--> statement-breakpoint
DROP INDEX "billing_bills_dispatch_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_corrects" ON "billing_bills" USING btree ("corrects_id") WHERE corrects_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_replaces" ON "billing_bills" USING btree ("replaces_id") WHERE replaces_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_number" ON "billing_bills" USING btree ("series_id","year","number") WHERE number IS NOT NULL;--> statement-breakpoint
CREATE INDEX "billing_bills_dispatch_idx" ON "billing_bills" USING btree ("dispatch_id","send_status") WHERE dispatch_id IS NOT NULL;