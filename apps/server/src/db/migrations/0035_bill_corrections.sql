DROP INDEX "billing_bills_consumer_period_kind";--> statement-breakpoint
ALTER TABLE "billing_bills" ADD COLUMN "replaces_id" integer;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD CONSTRAINT "billing_bills_replaces_id_billing_bills_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."billing_bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_replaces" ON "billing_bills" USING btree ("replaces_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_consumer_period_kind" ON "billing_bills" USING btree ("consumer_id","period_from","kind") WHERE replaces_id IS NULL;