-- Bills lose their foreign keys to their company, consumer and run: the three checks ran a query and
-- locked a row once per bill (a run writes 100,000 bills), a third of the cost of writing them.
-- Statement triggers keep the keys' guarantees, once per statement instead of once per bill.
ALTER TABLE "billing_bills" DROP CONSTRAINT "billing_bills_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "billing_bills" DROP CONSTRAINT "billing_bills_consumer_id_water_consumers_id_fk";
--> statement-breakpoint
ALTER TABLE "billing_bills" DROP CONSTRAINT "billing_bills_run_id_billing_runs_id_fk";
--> statement-breakpoint
-- 1. Every bill written has its company, consumer and run (if any), each distinct one looked up once
--    and locked FOR KEY SHARE as the keys' checks locked it (so it cannot be deleted before the bills
--    commit); an update checks only the bills whose reference changed, as the keys' checks did.
CREATE FUNCTION billing_bills_have_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT 'company ' || n.id INTO missing FROM (SELECT DISTINCT company_id AS id FROM new_rows) n
     WHERE NOT EXISTS (SELECT FROM companies c WHERE c.id = n.id FOR KEY SHARE) LIMIT 1;
    IF missing IS NULL THEN
      SELECT 'consumer ' || n.id INTO missing FROM (SELECT DISTINCT consumer_id AS id FROM new_rows) n
       WHERE NOT EXISTS (SELECT FROM water_consumers c WHERE c.id = n.id FOR KEY SHARE) LIMIT 1;
    END IF;
    IF missing IS NULL THEN
      SELECT 'run ' || n.id INTO missing FROM (SELECT DISTINCT run_id AS id FROM new_rows WHERE run_id IS NOT NULL) n
       WHERE NOT EXISTS (SELECT FROM billing_runs r WHERE r.id = n.id FOR KEY SHARE) LIMIT 1;
    END IF;
  ELSE
    SELECT 'company ' || n.id INTO missing
      FROM (SELECT DISTINCT n.company_id AS id FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE n.company_id <> o.company_id) n
     WHERE NOT EXISTS (SELECT FROM companies c WHERE c.id = n.id FOR KEY SHARE) LIMIT 1;
    IF missing IS NULL THEN
      SELECT 'consumer ' || n.id INTO missing
        FROM (SELECT DISTINCT n.consumer_id AS id FROM new_rows n JOIN old_rows o ON o.id = n.id
               WHERE n.consumer_id <> o.consumer_id) n
       WHERE NOT EXISTS (SELECT FROM water_consumers c WHERE c.id = n.id FOR KEY SHARE) LIMIT 1;
    END IF;
    IF missing IS NULL THEN
      SELECT 'run ' || n.id INTO missing
        FROM (SELECT DISTINCT n.run_id AS id FROM new_rows n JOIN old_rows o ON o.id = n.id
               WHERE n.run_id IS DISTINCT FROM o.run_id AND n.run_id IS NOT NULL) n
       WHERE NOT EXISTS (SELECT FROM billing_runs r WHERE r.id = n.id FOR KEY SHARE) LIMIT 1;
    END IF;
  END IF;
  IF missing IS NOT NULL THEN
    RAISE EXCEPTION 'insert or update on table "billing_bills" violates its references: % is not present', missing
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER billing_bills_insert_references AFTER INSERT ON billing_bills REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION billing_bills_have_references();--> statement-breakpoint
CREATE TRIGGER billing_bills_update_references AFTER UPDATE ON billing_bills
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION billing_bills_have_references();--> statement-breakpoint
-- 2. Deleting a company deletes its bills (the key's ON DELETE CASCADE), first: before the keys of its
--    other tables delete its consumers, whose trigger (4) would refuse to lose billed consumers.
CREATE FUNCTION companies_delete_bills() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM billing_bills WHERE company_id = OLD.id;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_delete_bills BEFORE DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION companies_delete_bills();--> statement-breakpoint
-- 3. Deleting a run leaves its bills without one (ON DELETE SET NULL).
CREATE FUNCTION billing_runs_unlink_bills() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE billing_bills b SET run_id = NULL FROM old_rows o WHERE b.run_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER billing_runs_unlink_bills AFTER DELETE ON billing_runs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION billing_runs_unlink_bills();--> statement-breakpoint
-- 4. A consumer with bills cannot be deleted (the key's NO ACTION, the same error).
CREATE FUNCTION water_consumers_keep_billed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  billed integer;
BEGIN
  SELECT b.consumer_id INTO billed FROM billing_bills b JOIN old_rows o ON o.id = b.consumer_id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'update or delete on table "water_consumers" violates the bills'' reference: consumer % has bills', billed
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER water_consumers_keep_billed AFTER DELETE ON water_consumers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION water_consumers_keep_billed();
