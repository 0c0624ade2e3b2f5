-- Behind the company wall (0045) the planner may read a consumer's bill of a period through the
-- company's bills of that period, while the billing run is writing them (its statistics still say the
-- table is small): with the consumer in that index the read stays one row.
DROP INDEX IF EXISTS "billing_bills_company_period_idx";--> statement-breakpoint
CREATE INDEX "billing_bills_company_period_idx" ON "billing_bills" USING btree ("company_id","period_from","consumer_id");
