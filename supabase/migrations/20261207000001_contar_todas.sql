-- Oficina: toda tabla de public avanza el contador de cambios (issue 30).
--
-- Los resultados guardados (cuentas, sumas, listas `keep`) valen mientras interno.cambios no
-- avanza: una tabla sin sus disparadores daría listas viejas sin que nada lo dijera. Las que aún
-- no los tenían (historial, invitaciones, las de avisos, el contador de folios) los reciben aquí;
-- una tabla nueva debe traerlos en su migración (interno.contar_cambios_de o
-- interno.tabla_con_historial, 20261125000007_escala; tests/integration/contar-cambio.test.ts lo
-- exige).

do $$
declare
  tabla text;
begin
  for tabla in
    select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p')
       and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'contar_cambio')
     order by c.relname
  loop
    perform interno.contar_cambios_de(tabla);
  end loop;
end
$$;
