CREATE TABLE "mydata_unsent" (
	"source" text NOT NULL,
	"document_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	CONSTRAINT "mydata_unsent_source_document_id_pk" PRIMARY KEY("source","document_id")
);
--> statement-breakpoint
ALTER TABLE "finance_import_files" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "readout_import_files" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "water_import_files" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "finance_import_files" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "readout_import_files" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "water_import_files" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "mydata_unsent" ADD CONSTRAINT "mydata_unsent_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mydata_unsent_company_idx" ON "mydata_unsent" USING btree ("company_id");--> statement-breakpoint
-- An import file is on the storage adapter (storage_key); files uploaded before kept their bytes here.
ALTER TABLE "finance_import_files" ADD CONSTRAINT "finance_import_files_stored" CHECK (storage_key IS NOT NULL OR content IS NOT NULL);--> statement-breakpoint
ALTER TABLE "readout_import_files" ADD CONSTRAINT "readout_import_files_stored" CHECK (storage_key IS NOT NULL OR content IS NOT NULL);--> statement-breakpoint
ALTER TABLE "water_import_files" ADD CONSTRAINT "water_import_files_stored" CHECK (storage_key IS NOT NULL OR content IS NOT NULL);--> statement-breakpoint
-- mydata_unsent holds what the view mydata_documents shows without a transmission. Statement triggers
-- with transition tables keep it: a billing run finalizes thousands of bills in one statement, and a
-- set-based insert costs a fraction of a row trigger's call per bill.
-- Finance documents and bills (TG_ARGV[0] 'document' or 'bill') entering or leaving the finalized state (9).
CREATE FUNCTION mydata_unsent_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  of_source text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO mydata_unsent (source, document_id, company_id)
      SELECT of_source, n.id, n.company_id FROM new_rows n JOIN finance_series s ON s.id = n.series_id
       WHERE n.entry_state = 9 AND s.mydata_type IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM mydata_transmissions m WHERE m.source = of_source AND m.document_id = n.id)
      ON CONFLICT DO NOTHING;
  ELSE
    DELETE FROM mydata_unsent u USING old_rows o JOIN new_rows n ON n.id = o.id
     WHERE o.entry_state = 9 AND n.entry_state IS DISTINCT FROM 9 AND u.source = of_source AND u.document_id = n.id;
    INSERT INTO mydata_unsent (source, document_id, company_id)
      SELECT of_source, n.id, n.company_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        JOIN finance_series s ON s.id = n.series_id
       WHERE n.entry_state = 9 AND o.entry_state IS DISTINCT FROM 9 AND s.mydata_type IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM mydata_transmissions m WHERE m.source = of_source AND m.document_id = n.id)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mydata_unsent_insert AFTER INSERT ON finance_documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mydata_unsent_keep('document');--> statement-breakpoint
CREATE TRIGGER mydata_unsent_update AFTER UPDATE ON finance_documents REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mydata_unsent_keep('document');--> statement-breakpoint
CREATE TRIGGER mydata_unsent_insert AFTER INSERT ON billing_bills REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mydata_unsent_keep('bill');--> statement-breakpoint
CREATE TRIGGER mydata_unsent_update AFTER UPDATE ON billing_bills REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mydata_unsent_keep('bill');--> statement-breakpoint
-- A series gaining or losing its myDATA type brings its finalized documents and bills in or out.
CREATE FUNCTION mydata_unsent_series() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
                  WHERE (o.mydata_type IS NULL) <> (n.mydata_type IS NULL)) THEN
    RETURN NULL;
  END IF;
  DELETE FROM mydata_unsent u USING old_rows o JOIN new_rows n ON n.id = o.id, finance_documents d
   WHERE o.mydata_type IS NOT NULL AND n.mydata_type IS NULL AND d.series_id = n.id
     AND u.source = 'document' AND u.document_id = d.id;
  DELETE FROM mydata_unsent u USING old_rows o JOIN new_rows n ON n.id = o.id, billing_bills b
   WHERE o.mydata_type IS NOT NULL AND n.mydata_type IS NULL AND b.series_id = n.id
     AND u.source = 'bill' AND u.document_id = b.id;
  INSERT INTO mydata_unsent (source, document_id, company_id)
    SELECT 'document', d.id, d.company_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      JOIN finance_documents d ON d.series_id = n.id
     WHERE o.mydata_type IS NULL AND n.mydata_type IS NOT NULL AND d.entry_state = 9
       AND NOT EXISTS (SELECT 1 FROM mydata_transmissions m WHERE m.source = 'document' AND m.document_id = d.id)
    UNION ALL
    SELECT 'bill', b.id, b.company_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      JOIN billing_bills b ON b.series_id = n.id
     WHERE o.mydata_type IS NULL AND n.mydata_type IS NOT NULL AND b.entry_state = 9
       AND NOT EXISTS (SELECT 1 FROM mydata_transmissions m WHERE m.source = 'bill' AND m.document_id = b.id)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mydata_unsent_series AFTER UPDATE ON finance_series REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mydata_unsent_series();--> statement-breakpoint
-- A document's first transmission (a row per document, never deleted) takes it out.
CREATE FUNCTION mydata_unsent_transmitted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM mydata_unsent u USING new_rows n WHERE u.source = n.source AND u.document_id = n.document_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mydata_unsent_transmitted AFTER INSERT ON mydata_transmissions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mydata_unsent_transmitted();--> statement-breakpoint
INSERT INTO mydata_unsent (source, document_id, company_id)
  SELECT v.source, v.id, v.company_id FROM mydata_documents v
   WHERE NOT EXISTS (SELECT 1 FROM mydata_transmissions m WHERE m.source = v.source AND m.document_id = v.id);
