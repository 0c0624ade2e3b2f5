CREATE TABLE "payments_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"debt_id" integer NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments_bank_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"layout_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text,
	"job_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"error" text,
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
CREATE TABLE "payments_bank_layouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"descr" text NOT NULL,
	"format" text NOT NULL,
	"separator" text DEFAULT ';' NOT NULL,
	"header_lines" smallint DEFAULT 0 NOT NULL,
	"record_prefix" text DEFAULT '' NOT NULL,
	"amount_in_cents" boolean DEFAULT false NOT NULL,
	"date_format" text DEFAULT 'YYYY-MM-DD' NOT NULL,
	"fields" jsonb NOT NULL,
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
CREATE TABLE "payments_bank_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"line_no" integer NOT NULL,
	"bank_reference" text NOT NULL,
	"rf_code" text,
	"amount" numeric(14, 2) NOT NULL,
	"date" date NOT NULL,
	"payer" text,
	"status" text NOT NULL,
	"payment_id" integer
);
--> statement-breakpoint
CREATE TABLE "payments_debts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"consumer_id" integer NOT NULL,
	"source" text NOT NULL,
	"bill_id" integer,
	"kind" smallint,
	"description" text NOT NULL,
	"issue_date" date NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"rf_code" text,
	"status" text DEFAULT 'open' NOT NULL,
	"settlement_key" text,
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
CREATE TABLE "payments_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"consumer_id" integer NOT NULL,
	"date" date NOT NULL,
	"type" text NOT NULL,
	"kind" smallint,
	"description" text NOT NULL,
	"debit" numeric(14, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(14, 2) DEFAULT '0' NOT NULL,
	"debt_id" integer,
	"payment_id" integer,
	"settlement_key" text,
	"createdate" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"consumer_id" integer NOT NULL,
	"kind" smallint,
	"method" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"unallocated" numeric(14, 2) DEFAULT '0' NOT NULL,
	"date" date NOT NULL,
	"cashier" text NOT NULL,
	"receipt_year" integer NOT NULL,
	"receipt_number" integer NOT NULL,
	"reference" text,
	"note" text,
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
CREATE TABLE "payments_receipt_counters" (
	"company_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "payments_receipt_counters_company_id_year_pk" PRIMARY KEY("company_id","year")
);
--> statement-breakpoint
ALTER TABLE "payments_allocations" ADD CONSTRAINT "payments_allocations_payment_id_payments_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_allocations" ADD CONSTRAINT "payments_allocations_debt_id_payments_debts_id_fk" FOREIGN KEY ("debt_id") REFERENCES "public"."payments_debts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_bank_files" ADD CONSTRAINT "payments_bank_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_bank_files" ADD CONSTRAINT "payments_bank_files_layout_id_payments_bank_layouts_id_fk" FOREIGN KEY ("layout_id") REFERENCES "public"."payments_bank_layouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_bank_files" ADD CONSTRAINT "payments_bank_files_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_bank_layouts" ADD CONSTRAINT "payments_bank_layouts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ADD CONSTRAINT "payments_bank_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ADD CONSTRAINT "payments_bank_lines_file_id_payments_bank_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."payments_bank_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_bank_lines" ADD CONSTRAINT "payments_bank_lines_payment_id_payments_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_debts" ADD CONSTRAINT "payments_debts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_debts" ADD CONSTRAINT "payments_debts_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_debts" ADD CONSTRAINT "payments_debts_bill_id_billing_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."billing_bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_entries" ADD CONSTRAINT "payments_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_entries" ADD CONSTRAINT "payments_entries_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_entries" ADD CONSTRAINT "payments_entries_debt_id_payments_debts_id_fk" FOREIGN KEY ("debt_id") REFERENCES "public"."payments_debts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_entries" ADD CONSTRAINT "payments_entries_payment_id_payments_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_payments" ADD CONSTRAINT "payments_payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_payments" ADD CONSTRAINT "payments_payments_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_receipt_counters" ADD CONSTRAINT "payments_receipt_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_allocations_debt_idx" ON "payments_allocations" USING btree ("debt_id");--> statement-breakpoint
CREATE INDEX "payments_allocations_payment_idx" ON "payments_allocations" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payments_bank_files_company_idx" ON "payments_bank_files" USING btree ("company_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_bank_layouts_code" ON "payments_bank_layouts" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_bank_lines_reference" ON "payments_bank_lines" USING btree ("company_id","bank_reference");--> statement-breakpoint
CREATE INDEX "payments_bank_lines_file_idx" ON "payments_bank_lines" USING btree ("file_id","line_no");--> statement-breakpoint
CREATE INDEX "payments_bank_lines_unmatched_idx" ON "payments_bank_lines" USING btree ("company_id") WHERE status = 'unmatched';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_debts_bill" ON "payments_debts" USING btree ("bill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_debts_rf_code" ON "payments_debts" USING btree ("rf_code");--> statement-breakpoint
CREATE INDEX "payments_debts_consumer_idx" ON "payments_debts" USING btree ("consumer_id","status","due_date","id");--> statement-breakpoint
CREATE INDEX "payments_debts_settlement_idx" ON "payments_debts" USING btree ("company_id","settlement_key");--> statement-breakpoint
CREATE INDEX "payments_entries_consumer_idx" ON "payments_entries" USING btree ("consumer_id","date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_payments_receipt" ON "payments_payments" USING btree ("company_id","receipt_year","receipt_number");--> statement-breakpoint
CREATE INDEX "payments_payments_consumer_idx" ON "payments_payments" USING btree ("consumer_id","date");--> statement-breakpoint
CREATE INDEX "payments_payments_day_idx" ON "payments_payments" USING btree ("company_id","date","cashier");