-- Schema 11: a computer seat's level (issue 19): easy (the rulesets' simple players),
-- normal or hard (the searching players, engine.core.search). NULL: a seat stored before
-- this schema, or a person's seat; a computer seat without a level plays easy, as it did.
ALTER TABLE seats ADD COLUMN ai_level TEXT CHECK (ai_level IN ('easy', 'normal', 'hard'));
