-- Bill lines keyed by bill and position, without an id of their own (a run writes a million of them).
ALTER TABLE "billing_bill_lines" DROP COLUMN "id";--> statement-breakpoint
DROP INDEX "billing_bill_lines_bill_position";--> statement-breakpoint
ALTER TABLE "billing_bill_lines" ADD CONSTRAINT "billing_bill_lines_pkey" PRIMARY KEY("bill_id","position");
