-- Las tablas de referencia estándar (tipos de IVA, IVA por categoría, la empresa, las políticas de
-- gasto y los límites exentos de IRPF) las ve quien está ubicado, como departamentos, sucursales y
-- proveedores. Quien se da de alta solo y aún no tiene departamento ve únicamente sus gastos y su
-- perfil: no el NIF ni la dirección de la empresa, ni lo que paga por km, ni sus políticas.
-- Lo que un gasto necesita de ellas (su IVA habitual, su deducibilidad, sus límites, la tarifa por
-- km) lo leen funciones del propietario (security definer), así que escribir o leer un gasto no
-- cambia para nadie.

create or replace function interno.tabla_de_administracion(p_tabla text) returns void
language plpgsql
set search_path = ''
as $fn$
begin
  execute format('alter table public.%I enable row level security', p_tabla);
  execute format('create policy %1$s_select on public.%1$I for select to authenticated
    using ((select interno.ubicado()))', p_tabla);
  perform interno.politicas_de_administrador(p_tabla);
  execute format('revoke all on public.%I from public, anon, authenticated', p_tabla);
  execute format('grant select on public.%I to authenticated', p_tabla);
  execute format('grant all on public.%I to service_role', p_tabla);
  perform interno.tabla_con_historial(p_tabla);
end
$fn$;
revoke all on function interno.tabla_de_administracion(text) from public, anon, authenticated;

-- Las que ya la llamaron, con la misma regla.
do $$
declare
  tabla text;
begin
  foreach tabla in array array['tipos_iva', 'categorias_fiscales', 'empresa', 'politicas_gasto',
                                'limites_exentos_irpf'] loop
    execute format('alter policy %1$s_select on public.%1$I using ((select interno.ubicado()))', tabla);
  end loop;
end
$$;
