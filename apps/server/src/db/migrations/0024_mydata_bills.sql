-- Water bills are transmitted too: a transmission is keyed by its source ('document' or 'bill') and the id there.
ALTER TABLE "mydata_transmissions" DROP CONSTRAINT "mydata_transmissions_document_id_finance_documents_id_fk";--> statement-breakpoint
ALTER TABLE "mydata_transmissions" ADD COLUMN "source" text DEFAULT 'document' NOT NULL;--> statement-breakpoint
ALTER TABLE "mydata_transmissions" ADD COLUMN "invoice_type" text;--> statement-breakpoint
ALTER TABLE "mydata_transmissions" DROP CONSTRAINT "mydata_transmissions_pkey";--> statement-breakpoint
ALTER TABLE "mydata_transmissions" ADD CONSTRAINT "mydata_transmissions_source_document_id_pk" PRIMARY KEY("source","document_id");
--> statement-breakpoint
-- What myDATA concerns, finance documents and water bills alike: finalized, of a series with a myDATA type, with their transmission (the list, the dashboard card).
CREATE VIEW "mydata_documents" AS
  SELECT 'd' || d.id AS "key", 'document' AS "source", d.id, d.company_id, s.code AS series_code, d.number, d.year, d.date,
         coalesce(m.invoice_type, s.mydata_type) AS invoice_type, tr.fullname AS trader_name, tr.fullname_norm AS trader_name_norm, d.payable AS gross,
         coalesce(m.state, 'notSent') AS state, m.mark, m.errors
    FROM finance_documents d
    JOIN finance_series s ON s.id = d.series_id
    LEFT JOIN traders tr ON tr.id = d.trader_id
    LEFT JOIN mydata_transmissions m ON m.source = 'document' AND m.document_id = d.id
   WHERE d.entry_state = 9 AND s.mydata_type IS NOT NULL
  UNION ALL
  SELECT 'b' || b.id, 'bill', b.id, b.company_id, s.code, b.number, b.year, b.issue_date,
         coalesce(m.invoice_type, s.mydata_type), tr.fullname, tr.fullname_norm, b.net + b.vat_total,
         coalesce(m.state, 'notSent'), m.mark, m.errors
    FROM billing_bills b
    JOIN finance_series s ON s.id = b.series_id
    JOIN water_consumers c ON c.id = b.consumer_id
    LEFT JOIN traders tr ON tr.id = c.owner_id
    LEFT JOIN mydata_transmissions m ON m.source = 'bill' AND m.document_id = b.id
   WHERE b.entry_state = 9 AND s.mydata_type IS NOT NULL;
