CREATE TABLE "billing_run_routes" (
	"run_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"route_id" integer NOT NULL,
	"year" integer NOT NULL,
	"period" smallint NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"year" integer NOT NULL,
	"period" smallint NOT NULL,
	"scope" text NOT NULL,
	"ids" integer[] DEFAULT '{}' NOT NULL,
	"route_ids" integer[] NOT NULL,
	"issue_date" date NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"job_id" integer,
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
ALTER TABLE "billing_bills" ADD COLUMN "run_id" integer;--> statement-breakpoint
ALTER TABLE "billing_run_routes" ADD CONSTRAINT "billing_run_routes_run_id_billing_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."billing_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_run_routes" ADD CONSTRAINT "billing_run_routes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_run_routes" ADD CONSTRAINT "billing_run_routes_route_id_water_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."water_routes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD CONSTRAINT "billing_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD CONSTRAINT "billing_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_run_routes_active" ON "billing_run_routes" USING btree ("company_id","route_id","year","period") WHERE active;--> statement-breakpoint
CREATE INDEX "billing_run_routes_run_idx" ON "billing_run_routes" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "billing_runs_company_idx" ON "billing_runs" USING btree ("company_id","year","period");--> statement-breakpoint
ALTER TABLE "billing_bills" ADD CONSTRAINT "billing_bills_run_id_billing_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."billing_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_bills_run_idx" ON "billing_bills" USING btree ("run_id");