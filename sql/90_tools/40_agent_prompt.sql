-- The memory section of an agent's system prompt (seed 000, "Default Agent Prompt"), written
-- for what the caller can actually do: the tools its kind may call, whether its tenant has an
-- embedding model, and, with no skill search, a capped slice of the curated skills.

CREATE OR REPLACE FUNCTION @schema@.agent_prompt(max_skills integer DEFAULT 5)
RETURNS text
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    offered text [];
    lines text [];
    skills text;
BEGIN
    max_skills := @schema@_internal.check_limit(max_skills, 'max_skills', 0, 50);
    -- The tools the caller is offered (available_tools, as an MCP host lists them): the
    -- prompt never mentions one it would be refused.
    SELECT pg_catalog.array_agg(d ->> 'name') INTO offered
      FROM pg_catalog.jsonb_array_elements(@schema@.available_tools()) AS d;
    lines := ARRAY[
        '## Memory',
        '',
        'Your conversation is lossy: it is cut and summarised. Facts are not. Write down what '
        'you will need again (decisions, task state, results, what the user told you) as soon '
        'as you learn it.',
        ''];
    IF 'store_fact' = ANY (offered) THEN
        lines := lines || ARRAY[
            '- `store_fact` keeps a fact in your session by default. Set `shared: true` only for '
            'knowledge other spawn trees or later sessions need.',
            '- When the user asks you to remember or forget something, do it now '
            '(`store_fact`, `delete_fact`) and say that you did.'];
    ELSE
        lines := lines || ARRAY['- You read memory but do not write it: your kind has no write tools.'];
    END IF;
    lines := lines || ARRAY[
        '- Before you resume long-running or multi-agent work, read the facts it left '
        '(`read_facts` with a `key_pattern`).',
        '- In multi-agent work, read what your peers and sub-agents wrote: `read_facts` with '
        '`scope: "descendants"`, or the `session_id` of a member of your spawn tree.'];
    IF 'search_skills' = ANY (offered) THEN
        lines := lines || ARRAY[
            '- For a request for a skill, or a question or workflow your context does not settle, '
            'call `search_skills` and load a skill''s full instructions (`read_facts`) before you '
            'use it. Greetings, arithmetic, status checks and follow-ups need no search; reuse a '
            'skill you already loaded.'];
    END IF;
    IF 'facts_search' = ANY (offered) THEN
        lines := lines || ARRAY[
            '- `facts_search` finds facts and knowledge '
            || CASE WHEN @schema@_internal.embeds(tenant) THEN 'by meaning as well as by words'
                    ELSE 'by their words' END
            || ', including your own earlier notes; it knows whether a question asks about now '
               'or about the past.'];
    END IF;
    IF 'graph_neighbourhood' = ANY (offered) THEN
        lines := lines || ARRAY[
            '- The knowledge graph (`graph_search_nodes`, `graph_neighbourhood`) links things to '
            'the facts that justify them: read an edge''s evidence with `read_facts` '
            '(`scopeKeys`) before you rely on it.'];
    END IF;
    IF NOT ('search_skills' = ANY (offered)) AND max_skills > 0 AND 'read_facts' = ANY (offered) THEN
        -- No skill search: the curated skills are pushed instead, a capped slice as PilotSwarm
        -- does: the ones updated last (read_facts' order, as the caller reads them), by key.
        SELECT pg_catalog.string_agg(
                   pg_catalog.format('- `%s`: %s', f.key,
                                     pg_catalog.left(@schema@_internal.skill_description(f.value), 200)),
                   E'\n' ORDER BY f.key)
          INTO skills
          FROM @schema@.read_facts(key_pattern => 'skills/*', scope => 'shared',
                                   "limit" => max_skills) AS f;
        IF skills IS NOT NULL THEN
            lines := lines || ARRAY['', '### Skills', '', skills];
        END IF;
    END IF;
    RETURN pg_catalog.array_to_string(lines, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION @schema@.agent_prompt(integer) IS
'The memory section of an agent''s system prompt (markdown) for the caller: guidance for the '
'tools available_tools offers it (writes, spawn-tree reads, search_skills, facts_search by '
'meaning when the tenant has an embedding model, the graph), and, when it has no '
'search_skills, up to max_skills (0..50, default 5) shared skills/ facts it may read, pushed '
'inline: the ones updated last, listed by key.';
