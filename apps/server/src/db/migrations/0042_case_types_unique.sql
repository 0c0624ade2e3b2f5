-- Issue 29 item 14: a case type's name is unique in its company, as a user group's is (exact, as
-- typed). Names already given twice keep their first holder; each later one gets its id appended,
-- so no case loses its type and the operator sees which ones to rename.
UPDATE "case_types" SET "descr" = "descr" || ' (' || "id" || ')'
WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY "company_id", "descr" ORDER BY "id") AS n FROM "case_types"
  ) AS named WHERE n > 1
);--> statement-breakpoint
-- Deferred to the commit, so a row-table save may swap two names.
ALTER TABLE "case_types" ADD CONSTRAINT "case_types_company_descr_unique" UNIQUE ("company_id", "descr") DEFERRABLE INITIALLY DEFERRED;
