CREATE TABLE "billing_dispatches" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"run_id" integer,
	"route_id" integer,
	"job_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"bills" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"file_key" text,
	"file_size" integer,
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
ALTER TABLE "billing_bills" ADD COLUMN "send_method" text;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD COLUMN "send_to" text;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD COLUMN "send_attempted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD COLUMN "send_error" text;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD COLUMN "dispatch_id" integer;--> statement-breakpoint
ALTER TABLE "billing_dispatches" ADD CONSTRAINT "billing_dispatches_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_dispatches" ADD CONSTRAINT "billing_dispatches_run_id_billing_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."billing_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_dispatches" ADD CONSTRAINT "billing_dispatches_route_id_water_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."water_routes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_dispatches" ADD CONSTRAINT "billing_dispatches_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_dispatches_company_idx" ON "billing_dispatches" USING btree ("company_id","run_id");--> statement-breakpoint
ALTER TABLE "billing_bills" ADD CONSTRAINT "billing_bills_dispatch_id_billing_dispatches_id_fk" FOREIGN KEY ("dispatch_id") REFERENCES "public"."billing_dispatches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_bills_dispatch_idx" ON "billing_bills" USING btree ("dispatch_id","send_status");