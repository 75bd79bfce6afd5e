-- The objects of schema auth, one line each, in an order that does not depend on how they were
-- made: tables with row security and comments, columns in their order with type, nullability,
-- default, generation and comment, constraints, indexes, sequences, enum types, functions.
with
  tables as (
    select c.oid, c.relname, c.relrowsecurity
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'auth' and c.relkind in ('r', 'p')
  )
select line from (
  select 'table ' || relname || ' rls=' || relrowsecurity::text
    || coalesce(' comment=' || obj_description(oid, 'pg_class'), '') as line
  from tables
  union all
  select 'column ' || t.relname || ' #'
    || lpad((row_number() over (partition by t.relname order by a.attnum))::text, 2, '0')
    || ' ' || a.attname
    || ' ' || format_type(a.atttypid, a.atttypmod)
    || case when a.attnotnull then ' not null' else '' end
    || coalesce(case a.attgenerated when 's' then ' generated ' else ' default ' end
      || pg_get_expr(d.adbin, d.adrelid), '')
    || case when a.attidentity <> '' then ' identity ' || a.attidentity::text else '' end
    || coalesce(' comment=' || col_description(t.oid, a.attnum), '')
  from tables t
  join pg_attribute a on a.attrelid = t.oid and a.attnum > 0 and not a.attisdropped
  left join pg_attrdef d on d.adrelid = t.oid and d.adnum = a.attnum
  union all
  select 'constraint ' || t.relname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid)
  from tables t join pg_constraint k on k.conrelid = t.oid
  union all
  select 'index ' || i.relname || ' ' || pg_get_indexdef(i.oid)
    || coalesce(' comment=' || obj_description(i.oid, 'pg_class'), '')
  from pg_class i join pg_namespace n on n.oid = i.relnamespace
  where n.nspname = 'auth' and i.relkind in ('i', 'I')
  union all
  select 'sequence ' || s.relname || ' ' || format_type(q.seqtypid, null)
    || ' start ' || q.seqstart || ' increment ' || q.seqincrement
    || coalesce(' owned by ' || (
      select t.relname || '.' || a.attname
      from pg_depend dep
      join pg_class t on t.oid = dep.refobjid
      join pg_attribute a on a.attrelid = dep.refobjid and a.attnum = dep.refobjsubid
      where dep.classid = 'pg_class'::regclass and dep.objid = s.oid and dep.deptype in ('a', 'i')), '')
  from pg_class s
  join pg_namespace n on n.oid = s.relnamespace
  join pg_sequence q on q.seqrelid = s.oid
  where n.nspname = 'auth'
  union all
  select 'type ' || y.typname || ' enum ('
    || string_agg(e.enumlabel, ', ' order by e.enumsortorder) || ')'
  from pg_type y
  join pg_namespace n on n.oid = y.typnamespace
  join pg_enum e on e.enumtypid = y.oid
  where n.nspname = 'auth'
  group by y.typname
  union all
  select 'function ' || p.proname || '(' || pg_get_function_arguments(p.oid) || ') returns '
    || pg_get_function_result(p.oid) || ' language ' || l.lanname || ' volatility '
    || p.provolatile::text || ' body ' || regexp_replace(btrim(p.prosrc, E' \n\t'), '\s+', ' ', 'g')
    || coalesce(' comment=' || obj_description(p.oid, 'pg_proc'), '')
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  join pg_language l on l.oid = p.prolang
  where n.nspname = 'auth'
) objects
order by line collate "C";
