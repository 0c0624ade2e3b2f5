-- What each table's search trigger stores, as a function of its row, one name for every indexed table:
-- the reindex compares a row's vector with it and rewrites only the rows whose vector changed (a
-- rewritten row is a new row version in every index of the table; an unchanged one costs a read).
CREATE FUNCTION search_vector_of(d documents) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT documents_search_vector(d.name, d.subject, d.correspondents) $$;
--> statement-breakpoint
CREATE FUNCTION search_vector_of(c cases) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT cases_search_vector(c.code, c.name) $$;
--> statement-breakpoint
CREATE FUNCTION search_vector_of(t traders) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT traders_search_vector(t.fullname, t.firstname, t.lastname, t.vatnumber, t.tradercode) $$;
--> statement-breakpoint
CREATE FUNCTION search_vector_of(s form_submissions) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT form_submissions_search_vector(s.reference, s.applicant, s.protocol_number) $$;
--> statement-breakpoint
CREATE FUNCTION search_vector_of(w water_consumers) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT water_consumers_search_vector(w.code, w.supply_address) $$;
