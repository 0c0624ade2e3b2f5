ALTER TABLE "billing_bills" ADD COLUMN "corrects_id" integer;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD CONSTRAINT "billing_bills_corrects_id_billing_bills_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."billing_bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_corrects" ON "billing_bills" USING btree ("corrects_id");--> statement-breakpoint
-- Every company's water-bill series gets its related credit series (ΠΛΥ, myDATA 11.4), where it has none.
INSERT INTO "finance_series" ("company_id", "code", "descr", "kind", "seqnr", "printype", "copies", "checkdates", "debit_credit", "mydata_type", "moves_stock", "createuser")
SELECT s."company_id", 'ΠΛΥ', 'Πιστωτικό Λογαριασμού Ύδρευσης', 'creditNote', s."seqnr" + 5, 0, 1, true, 2, '11.4', false, 'system'
  FROM "finance_series" s
 WHERE s."kind" = 'waterBill' AND s."relseqid" IS NULL
ON CONFLICT ("company_id", "code") DO NOTHING;--> statement-breakpoint
UPDATE "finance_series" s SET "relseqid" = c."id"
  FROM "finance_series" c
 WHERE s."kind" = 'waterBill' AND s."relseqid" IS NULL
   AND c."company_id" = s."company_id" AND c."code" = 'ΠΛΥ' AND c."debit_credit" = 2;
