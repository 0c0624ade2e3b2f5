CREATE TABLE "form_drafts" (
	"token" text PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"values" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"reference" text NOT NULL,
	"values" jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"assigned_to" integer,
	"assigned_group_id" integer,
	"duplicate_of" integer,
	"document_id" integer,
	"protocol_number" text,
	"case_id" integer,
	"trader_id" integer,
	"applicant" text,
	"applicant_norm" text GENERATED ALWAYS AS (norm_text(applicant)) STORED,
	"fee" numeric(11, 2),
	"rf_code" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector",
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
CREATE TABLE "form_submit_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"form_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"submission_id" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "online_form_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"version" integer NOT NULL,
	"api" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" text
);
--> statement-breakpoint
CREATE TABLE "online_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"form_id" text NOT NULL,
	"title" text NOT NULL,
	"language" smallint DEFAULT 0 NOT NULL,
	"description" text,
	"submit_method" smallint DEFAULT 0 NOT NULL,
	"save_method" smallint DEFAULT 0 NOT NULL,
	"mail_to" text,
	"success_note" text,
	"error_note" text,
	"success_url" text,
	"error_url" text,
	"status" smallint DEFAULT 0 NOT NULL,
	"assign_to" integer,
	"is_online" boolean DEFAULT false NOT NULL,
	"is_payment" boolean DEFAULT false NOT NULL,
	"fee" numeric(11, 2),
	"auto_nr" boolean DEFAULT false NOT NULL,
	"book_id" integer,
	"disabled" boolean DEFAULT false NOT NULL,
	"readonly" boolean DEFAULT false NOT NULL,
	"printurl" text,
	"parent_form_id" integer,
	"api" text DEFAULT '[]' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"create_user_id" integer,
	"title_norm" text GENERATED ALWAYS AS (norm_text(title)) STORED,
	"form_id_norm" text GENERATED ALWAYS AS (norm_text(form_id)) STORED,
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
CREATE TABLE "form_submission_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"from_status" smallint,
	"to_status" smallint NOT NULL,
	"assigned_to" integer,
	"assigned_group_id" integer,
	"comments" text,
	"user_id" integer,
	"username" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_form_id_online_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."online_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_form_id_online_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."online_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_version_id_online_form_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."online_form_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_assigned_group_id_user_groups_id_fk" FOREIGN KEY ("assigned_group_id") REFERENCES "public"."user_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_trader_id_traders_id_fk" FOREIGN KEY ("trader_id") REFERENCES "public"."traders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_uploads" ADD CONSTRAINT "form_uploads_form_id_online_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."online_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_uploads" ADD CONSTRAINT "form_uploads_submission_id_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."form_submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_form_versions" ADD CONSTRAINT "online_form_versions_form_id_online_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."online_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_forms" ADD CONSTRAINT "online_forms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_forms" ADD CONSTRAINT "online_forms_assign_to_users_id_fk" FOREIGN KEY ("assign_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_forms" ADD CONSTRAINT "online_forms_book_id_protocol_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."protocol_books"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_forms" ADD CONSTRAINT "online_forms_create_user_id_users_id_fk" FOREIGN KEY ("create_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submission_history" ADD CONSTRAINT "form_submission_history_submission_id_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."form_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submission_history" ADD CONSTRAINT "form_submission_history_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submission_history" ADD CONSTRAINT "form_submission_history_assigned_group_id_user_groups_id_fk" FOREIGN KEY ("assigned_group_id") REFERENCES "public"."user_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submission_history" ADD CONSTRAINT "form_submission_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_submissions_reference_idx" ON "form_submissions" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "form_submissions_company_idx" ON "form_submissions" USING btree ("company_id","submitted_at");--> statement-breakpoint
CREATE INDEX "form_submissions_form_idx" ON "form_submissions" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "form_submissions_applicant_norm_trgm" ON "form_submissions" USING gin ("applicant_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "form_submissions_search_idx" ON "form_submissions" USING gin ("search_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "form_submit_attempts_ip_idx" ON "form_submit_attempts" USING btree ("ip","at");--> statement-breakpoint
CREATE UNIQUE INDEX "form_uploads_token_idx" ON "form_uploads" USING btree ("token");--> statement-breakpoint
CREATE INDEX "form_uploads_submission_idx" ON "form_uploads" USING btree ("submission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_form_versions_form_version_idx" ON "online_form_versions" USING btree ("form_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "online_forms_form_id_idx" ON "online_forms" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "online_forms_company_idx" ON "online_forms" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "online_forms_title_norm_trgm" ON "online_forms" USING gin ("title_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "form_submission_history_submission_idx" ON "form_submission_history" USING btree ("submission_id");--> statement-breakpoint
-- The global search over submissions: reference, applicant, protocol number (see 0012_global_search).
CREATE FUNCTION form_submissions_search_vector(reference text, applicant text, protocol_number text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_tsvector('public.greek_unaccent', concat_ws(' ', reference, applicant, protocol_number)) $$;
--> statement-breakpoint
CREATE FUNCTION form_submissions_search_vector_keep() RETURNS trigger LANGUAGE plpgsql
  AS $$ BEGIN
    NEW.search_vector := form_submissions_search_vector(NEW.reference, NEW.applicant, NEW.protocol_number);
    RETURN NEW;
  END $$;
--> statement-breakpoint
CREATE TRIGGER form_submissions_search_vector BEFORE INSERT OR UPDATE OF reference, applicant, protocol_number, search_vector
  ON form_submissions FOR EACH ROW EXECUTE FUNCTION form_submissions_search_vector_keep();
