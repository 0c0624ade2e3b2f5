CREATE TABLE "addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"street" text NOT NULL,
	"number" text,
	"area" text,
	"postal_code" text NOT NULL,
	"municipality" text,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "banks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"bic" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "custom_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"entity" text NOT NULL,
	"key" text NOT NULL,
	"label_el" text NOT NULL,
	"label_en" text NOT NULL,
	"type" text NOT NULL,
	"custom_table_id" integer,
	"required" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "custom_table_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"custom_table_id" integer NOT NULL,
	"description" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "custom_tables" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"parent_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "periodicities" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"periodicity_type" smallint NOT NULL,
	"periods" smallint NOT NULL,
	"startyear" integer NOT NULL,
	"startperiod" smallint NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vat_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vat_percentages" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" smallint NOT NULL,
	"description" text NOT NULL,
	"percentage" numeric(5, 2) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vat_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_custom_table_id_custom_tables_id_fk" FOREIGN KEY ("custom_table_id") REFERENCES "public"."custom_tables"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_table_values" ADD CONSTRAINT "custom_table_values_custom_table_id_custom_tables_id_fk" FOREIGN KEY ("custom_table_id") REFERENCES "public"."custom_tables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_tables" ADD CONSTRAINT "custom_tables_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_parent_id_departments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "periodicities" ADD CONSTRAINT "periodicities_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "addresses_company_idx" ON "addresses" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "custom_fields_table_idx" ON "custom_fields" USING btree ("custom_table_id");--> statement-breakpoint
CREATE INDEX "custom_table_values_table_idx" ON "custom_table_values" USING btree ("custom_table_id");--> statement-breakpoint
CREATE INDEX "departments_parent_idx" ON "departments" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "periodicities_company_idx" ON "periodicities" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "banks" ADD CONSTRAINT "banks_name_unique" UNIQUE ("name") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "banks" ADD CONSTRAINT "banks_bic_unique" UNIQUE ("bic") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "vat_percentages" ADD CONSTRAINT "vat_percentages_code_unique" UNIQUE ("code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "vat_categories" ADD CONSTRAINT "vat_categories_code_unique" UNIQUE ("code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "vat_statuses" ADD CONSTRAINT "vat_statuses_code_unique" UNIQUE ("code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "custom_tables" ADD CONSTRAINT "custom_tables_name_unique" UNIQUE ("company_id", "name") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "custom_table_values" ADD CONSTRAINT "custom_table_values_description_unique" UNIQUE ("custom_table_id", "description") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_key_unique" UNIQUE ("company_id", "entity", "key") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
INSERT INTO "banks" ("name", "bic", "createuser") VALUES
  ('Εθνική Τράπεζα της Ελλάδος', 'ETHNGRAA', 'system'),
  ('Τράπεζα Πειραιώς', 'PIRBGRAA', 'system'),
  ('Eurobank', 'ERBKGRAA', 'system'),
  ('Alpha Bank', 'CRBAGRAA', 'system'),
  ('Attica Bank', 'ATTIGRAA', 'system'),
  ('Optima bank', 'OPTIGRAA', 'system'),
  ('Παγκρήτια Τράπεζα', 'PCBCGRAA', 'system');--> statement-breakpoint
INSERT INTO "vat_percentages" ("code", "description", "percentage", "createuser") VALUES
  (1, 'ΦΠΑ 24%', 24.00, 'system'),
  (2, 'ΦΠΑ 13%', 13.00, 'system'),
  (3, 'ΦΠΑ 6%', 6.00, 'system'),
  (4, 'ΦΠΑ 17% (νησιά)', 17.00, 'system'),
  (5, 'ΦΠΑ 9% (νησιά)', 9.00, 'system'),
  (6, 'ΦΠΑ 4% (νησιά)', 4.00, 'system'),
  (7, 'ΦΠΑ 0%', 0.00, 'system'),
  (8, 'Εγγραφές χωρίς ΦΠΑ (απαλλαγή)', 0.00, 'system');--> statement-breakpoint
INSERT INTO "vat_categories" ("code", "description", "createuser") VALUES
  ('1', 'Κανονικό', 'system'),
  ('2', 'Μειωμένο (νησιά)', 'system'),
  ('3', 'Απαλλασσόμενο', 'system'),
  ('4', 'Ενδοκοινοτικό', 'system'),
  ('5', 'Τρίτες χώρες', 'system');--> statement-breakpoint
INSERT INTO "vat_statuses" ("code", "description", "createuser") VALUES
  ('1', 'Υπόχρεος', 'system'),
  ('2', 'Μη υπόχρεος', 'system'),
  ('3', 'Απαλλασσόμενος', 'system');
