-- The global search's query of what was typed (platform/search `searchText`): every word a prefix in
-- two forms, either of which may match — stemmed by the Greek configuration ('αιτησεις' → 'αιτησ') and
-- only normalised (accents, case, ς) for a word cut short — and all the words together. One function
-- of the words' array, so a search statement has one text for any number of words and is built once
-- per source, not per request. IMMUTABLE: with the words known when a statement is planned (an
-- unnamed statement's values), PostgreSQL computes the query then, as it did the inline expression,
-- and plans for it.
CREATE FUNCTION search_query(words text[]) RETURNS tsquery
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  wanted tsquery;
  word text;
  one tsquery;
BEGIN
  FOREACH word IN ARRAY words LOOP
    one := to_tsquery('public.greek_unaccent', word || ':*') || to_tsquery('simple', norm_text(word) || ':*');
    wanted := CASE WHEN wanted IS NULL THEN one ELSE wanted && one END;
  END LOOP;
  RETURN wanted;
END $$;
