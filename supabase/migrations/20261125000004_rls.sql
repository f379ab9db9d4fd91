-- Oficina: privilegios, seguridad a nivel de fila (docs/producto.md «Roles») y vistas de las listas.
--
-- Todo acceso de usuarios pasa por el rol `authenticated` (PostgREST en Supabase; el adaptador
-- SQL hace `set_config('role','authenticated',true)` + request.jwt.claims). `anon` no tiene
-- nada. Una política por orden, `to authenticated`, con `(select auth.uid())`.

-- ---------------------------------------------------------------------------------------------
-- Funciones auxiliares de seguridad (SECURITY DEFINER: leen usuarios sin pasar por RLS, así las
-- políticas de usuarios pueden usarlas sin recursión). Devuelven null/false sin usuario activo.
-- ---------------------------------------------------------------------------------------------
-- En PL/pgSQL (ADR 0008): una función SQL con SECURITY DEFINER no se puede incrustar en la
-- consulta que la llama, y PostgreSQL 17 vuelve a analizar y planificar su cuerpo en cada consulta
-- que la usa: cada `(select interno.rol_actual())` de una política se planificaría otra vez, y una
-- página de gastos hace diez (una por tabla de gastos_vista y de su subconsulta). Una función
-- PL/pgSQL guarda el plan de su consulta en la sesión.

create function interno.rol_actual() returns text language plpgsql stable security definer set search_path = '' as $$
begin
  return (select u.rol from public.usuarios u where u.id = (select auth.uid()) and u.activo);
end
$$;

create function interno.es_admin() returns boolean language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce(interno.rol_actual() = 'administrador', false);
end
$$;

create function interno.departamento_actual() returns uuid language plpgsql stable security definer set search_path = '' as $$
begin
  return (select u.departamento_id from public.usuarios u where u.id = (select auth.uid()) and u.activo);
end
$$;

-- Departamentos de los que el usuario actual (activo) es responsable.
create function interno.departamentos_a_cargo() returns uuid[] language plpgsql stable security definer set search_path = '' as $$
begin
  return (select coalesce(array_agg(d.id), '{}')
            from public.departamentos d
            join public.usuarios u on u.id = d.responsable_id and u.activo
           where d.responsable_id = (select auth.uid()));
end
$$;

-- Las personas cuyos gastos aprueba p_actor por su relación con ellas (solo si está activo y es
-- aprobador; un administrador lo aprueba todo y un empleado nada): las que le tienen como
-- aprobador_id, las de su departamento, y las de los departamentos de los que es responsable y
-- de todos los que cuelgan de ellos. Nunca él mismo.
create function interno.solicitantes_de(p_actor uuid) returns uuid[]
language plpgsql stable security definer set search_path = '' as $$
begin
  return (
    with recursive yo as (
      select u.id, u.departamento_id from public.usuarios u
       where u.id = p_actor and u.activo and u.rol = 'aprobador'
    ), a_cargo (id) as (
      select d.id from public.departamentos d join yo on d.responsable_id = yo.id
      union
      select h.id from public.departamentos h join a_cargo c on h.departamento_padre_id = c.id
    )
    select coalesce(array_agg(s.id), '{}')
      from public.usuarios s cross join yo
     where s.id <> yo.id
       and (s.aprobador_id = yo.id
            or s.departamento_id = yo.departamento_id
            or s.departamento_id in (select a.id from a_cargo a)));
end
$$;

-- Las del usuario actual (para la RLS y las listas: se evalúa una vez por consulta).
create function interno.solicitantes_a_cargo() returns uuid[] language plpgsql stable security definer set search_path = '' as $$
begin
  return interno.solicitantes_de(auth.uid());
end
$$;

-- Quien consulta (activo) ya está ubicado: administrador, aprobador, invitado, o con departamento.
-- Un empleado de alta propia sin departamento («pendiente») solo ve sus gastos (y lo que cuelga de
-- ellos) y su propio perfil: ni el directorio (correos y teléfonos de todos), ni proveedores, ni
-- departamentos, ni sucursales, ni el historial de otras tablas. En cuanto un administrador le
-- asigna un departamento (o le da otro rol), deja de estarlo. La regla está aquí, en la RLS, no
-- solo en las pantallas: igual en los dos backends.
create function interno.ubicado() returns boolean language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce((select not (u.alta_propia and u.departamento_id is null and u.rol = 'empleado')
                     from public.usuarios u
                    where u.id = (select auth.uid()) and u.activo), false);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Privilegios (Supabase concede por defecto todo a anon/authenticated: se retira y se concede
-- solo lo necesario, columna a columna donde importa)
-- ---------------------------------------------------------------------------------------------

revoke all on all tables in schema public from public, anon, authenticated;
revoke all on all sequences in schema public from public, anon, authenticated;
revoke execute on all functions in schema interno from public, anon, authenticated;

grant usage on schema public to authenticated, service_role;
grant usage on schema interno to authenticated, service_role;
grant execute on function
  interno.rol_actual(), interno.es_admin(), interno.departamento_actual(), interno.departamentos_a_cargo(),
  interno.solicitantes_a_cargo(), interno.ubicado(), interno.es_categoria_gasto(text),
  interno.nombre_completo(text, text)
  to authenticated, service_role;

grant select, delete on public.departamentos, public.sucursales, public.proveedores to authenticated;
grant insert (id, nombre, codigo, departamento_padre_id, responsable_id, centro_costo,
              presupuesto_mensual, activo, notas),
      update (nombre, codigo, departamento_padre_id, responsable_id, centro_costo,
              presupuesto_mensual, activo, notas)
  on public.departamentos to authenticated;
grant insert (id, nombre, codigo, direccion, ciudad, provincia, codigo_postal, pais, telefono,
              email, responsable_id, activo),
      update (nombre, codigo, direccion, ciudad, provincia, codigo_postal, pais, telefono,
              email, responsable_id, activo)
  on public.sucursales to authenticated;
grant insert (id, razon_social, nombre_comercial, tipo_persona, pais, nif, email, telefono,
              sitio_web, direccion, ciudad, provincia, codigo_postal, iban, categoria, activo, notas),
      update (razon_social, nombre_comercial, tipo_persona, pais, nif, email, telefono,
              sitio_web, direccion, ciudad, provincia, codigo_postal, iban, categoria, activo, notas)
  on public.proveedores to authenticated;

-- usuarios: las altas las crea el disparador de auth.users; email e id nunca se editan aquí.
grant select, delete on public.usuarios to authenticated;
grant update (nombre, apellidos, rol, departamento_id, sucursal_id, aprobador_id, puesto,
              telefono, activo)
  on public.usuarios to authenticated;

-- gastos: estado, folio, aprobación y pago solo cambian con las funciones del flujo.
grant select, delete on public.gastos to authenticated;
grant insert (id, descripcion, fecha_gasto, categoria, importe, importe_impuestos, metodo_pago,
              proveedor_id, numero_factura, solicitante_id, departamento_id, sucursal_id, notas),
      update (descripcion, fecha_gasto, categoria, importe, importe_impuestos, metodo_pago,
              proveedor_id, numero_factura, solicitante_id, departamento_id, sucursal_id, notas)
  on public.gastos to authenticated;

grant select on public.historial to authenticated;

-- service_role (solo Supabase, clave de servidor): como en Supabase, todo.
grant all on all tables in schema public to service_role;
grant all on all sequences in schema public to service_role;

-- ---------------------------------------------------------------------------------------------
-- RLS
-- ---------------------------------------------------------------------------------------------

alter table public.departamentos enable row level security;
alter table public.sucursales enable row level security;
alter table public.usuarios enable row level security;
alter table public.proveedores enable row level security;
alter table public.gastos enable row level security;
alter table public.historial enable row level security;
alter table public.gastos_folio_contador enable row level security; -- sin políticas: nadie

-- Cambiar (crear, editar, eliminar), solo un administrador: las políticas <tabla>_insert,
-- <tabla>_update y <tabla>_delete de una tabla de public, declaradas una vez.
create function interno.politicas_de_administrador(p_tabla text) returns void language plpgsql set search_path = '' as $fn$
begin
  execute format('create policy %1$s_insert on public.%1$I for insert to authenticated
    with check ((select interno.es_admin()))', p_tabla);
  execute format('create policy %1$s_update on public.%1$I for update to authenticated
    using ((select interno.es_admin())) with check ((select interno.es_admin()))', p_tabla);
  execute format('create policy %1$s_delete on public.%1$I for delete to authenticated
    using ((select interno.es_admin()))', p_tabla);
end
$fn$;
revoke all on function interno.politicas_de_administrador(text) from public, anon, authenticated;

-- departamentos y sucursales: ver, quien está ubicado; cambiar, administrador.
create policy departamentos_select on public.departamentos for select to authenticated
  using ((select interno.ubicado()));
select interno.politicas_de_administrador('departamentos');
create policy sucursales_select on public.sucursales for select to authenticated
  using ((select interno.ubicado()));
select interno.politicas_de_administrador('sucursales');

-- proveedores: ver, quien está ubicado; crear y editar, administrador o aprobador; eliminar,
-- administrador.
create policy proveedores_select on public.proveedores for select to authenticated
  using ((select interno.ubicado()));
create policy proveedores_insert on public.proveedores for insert to authenticated
  with check ((select interno.rol_actual()) in ('administrador', 'aprobador'));
create policy proveedores_update on public.proveedores for update to authenticated
  using ((select interno.rol_actual()) in ('administrador', 'aprobador'))
  with check ((select interno.rol_actual()) in ('administrador', 'aprobador'));
create policy proveedores_delete on public.proveedores for delete to authenticated
  using ((select interno.es_admin()));

-- usuarios: ver, el directorio quien está ubicado y su propio perfil cualquiera activo; sin altas;
-- editar, administrador o uno mismo (rol/activo: solo admin, lo impide interno.usuarios_proteger);
-- eliminar, administrador.
create policy usuarios_select on public.usuarios for select to authenticated
  using ((select interno.ubicado())
         or (id = (select auth.uid()) and (select interno.rol_actual()) is not null));
create policy usuarios_update on public.usuarios for update to authenticated
  using ((select interno.es_admin())
         or (id = (select auth.uid()) and (select interno.rol_actual()) is not null))
  with check ((select interno.es_admin())
         or (id = (select auth.uid()) and (select interno.rol_actual()) is not null));
create policy usuarios_delete on public.usuarios for delete to authenticated
  using ((select interno.es_admin()));

-- gastos: ver, administrador todos; los propios; y, salvo borradores, los asignados, un
-- aprobador los de su departamento, el responsable los de su departamento y quien los aprueba por
-- su relación con el solicitante (interno.solicitantes_a_cargo). Un borrador es un gasto a medio
-- escribir: solo lo ven su solicitante y los administradores; al enviarlo lo ven quienes lo
-- aprueban, y si vuelve a borrador (retirar, reabrir) deja de verse otra vez. La misma regla está
-- en interno.puede_ver_gasto (20261125000005_flujo.sql) y en buscar_gastos
-- (20261125000007_escala.sql); gastos_vista, historial_vista y el panel la siguen solos.
-- Quien está pendiente de ubicar (interno.ubicado), solo los suyos.
-- Crear, editar y eliminar: solo borradores, propios o (administrador) de cualquiera.
create policy gastos_select on public.gastos for select to authenticated
  using (
    (select interno.rol_actual()) is not null
    and (
      (select interno.es_admin())
      or solicitante_id = (select auth.uid())
      or ((select interno.ubicado())
          and estado <> 'borrador'
          and (aprobador_id = (select auth.uid())
               or ((select interno.rol_actual()) = 'aprobador'
                   and departamento_id = (select interno.departamento_actual()))
               or departamento_id = any ((select interno.departamentos_a_cargo())::uuid[])
               or solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])))
    )
  );

-- Cambiar (crear, editar, eliminar) las filas de una persona, ella misma (activa) o un
-- administrador: las políticas <tabla>_insert, <tabla>_update y <tabla>_delete de una tabla de
-- public cuya columna p_columna dice de quién es cada fila, declaradas una vez. p_ademas: lo que
-- además ha de cumplir la fila, antes y después del cambio (un gasto, ser borrador).
create function interno.politicas_de_la_persona(p_tabla text, p_columna text, p_ademas text default 'true')
returns void language plpgsql set search_path = '' as $fn$
declare
  v_suya text := format('(%s) and (select interno.rol_actual()) is not null
    and (%I = (select auth.uid()) or (select interno.es_admin()))', p_ademas, p_columna);
begin
  execute format('create policy %1$s_insert on public.%1$I for insert to authenticated
    with check (%2$s)', p_tabla, v_suya);
  execute format('create policy %1$s_update on public.%1$I for update to authenticated
    using (%2$s) with check (%2$s)', p_tabla, v_suya);
  execute format('create policy %1$s_delete on public.%1$I for delete to authenticated
    using (%2$s)', p_tabla, v_suya);
end
$fn$;
revoke all on function interno.politicas_de_la_persona(text, text, text) from public, anon, authenticated;
select interno.politicas_de_la_persona('gastos', 'solicitante_id', 'estado = ''borrador''');

-- historial: solo lectura; su política, historial_select, nombra las tablas de cada rama que
-- tienen historial propio y se crea donde ya existen todas (20261226000001_datos_por_necesidad).

-- ---------------------------------------------------------------------------------------------
-- Vistas de las listas (security_invoker: aplican la RLS de quien consulta). gastos_vista dice
-- además si quien mira puede aprobar cada gasto: la regla de interno.motivo_no_aprueba escrita
-- como expresión (las funciones en subconsultas sin correlación, calculadas una vez por consulta);
-- tests/integration/separacion-funciones.test.ts comprueba que coinciden.
-- ---------------------------------------------------------------------------------------------

-- Un solo nombre para cada proveedor en todas partes (listas, fichas, filtros, selectores,
-- historial, panel): «Nombre comercial (Razón social)» si tiene un nombre comercial distinto de su
-- razón social, y si no la razón social: se reconoce por el nombre de la calle y se identifica
-- por el legal.
create function interno.nombre_proveedor(p_razon_social text, p_nombre_comercial text) returns text
language sql immutable set search_path = '' as $$
  select case
    when nullif(btrim(p_nombre_comercial), '') is null
         or lower(btrim(p_nombre_comercial)) = lower(btrim(p_razon_social)) then p_razon_social
    else btrim(p_nombre_comercial) || ' (' || p_razon_social || ')'
  end
$$;
revoke execute on function interno.nombre_proveedor(text, text) from public, anon;
grant execute on function interno.nombre_proveedor(text, text) to authenticated, service_role;

-- Las vistas de departamentos, sucursales, proveedores y usuarios llevan `*`, que incluye su
-- columna `busqueda`: se crean después de ella, en 20261201000001_busqueda.

-- gastos_vista lleva `g.*`, que PostgreSQL expande al crear la vista: una columna añadida a gastos
-- no aparece en ella hasta recrearla. Esta función la recrea (con sus privilegios); la migración
-- que añade una columna a gastos termina con `select interno.crear_gastos_vista();`
-- (docs/conventions.md, «Add a field to gastos»). Rehace también las vistas que se leen de ella:
-- el libro de facturas recibidas, los viajes con sus totales y el informe de IRPF.
-- Lo que añade cada archivo posterior, y que la vista lee de él:
--   * `justificantes` (20261127000001_justificantes): cuántos tiene cada gasto, como los ve quien
--     pregunta (el clip de la lista, la columna del CSV);
--   * los datos fiscales (20261212000001_datos_fiscales): el emisor efectivo y el IVA deducible de
--     cada gasto, que solo se calcula cuando una consulta lo pide (la vista se aplana y lo que no
--     se lee no se evalúa); el libro de facturas recibidas (las columnas del libro de la AEAT);
--   * `en_remesa` (20261214000001_remesas): la vista «Aprobados pendientes de pago» necesita saber
--     qué gastos aprobados están ya en una remesa viva;
--   * el viaje y el IRPF de cada gasto, los viajes y el informe de IRPF (20261224000001_viajes).
-- Por eso las vistas se crean una vez, en 20261224000001_viajes, cuando existen todas sus
-- columnas y tablas (plpgsql resuelve los nombres al ejecutarse, no al crear la función).
create function interno.crear_gastos_vista() returns void language plpgsql set search_path = '' as $fn$
begin
  drop view if exists public.informe_irpf;
  drop view if exists public.viajes_vista;
  drop view if exists public.libro_facturas_recibidas;
  drop view if exists public.gastos_vista;
  create view public.gastos_vista with (security_invoker = true) as
  select g.*,
         interno.nombre_proveedor(p.razon_social, p.nombre_comercial) as proveedor_nombre,
         interno.nombre_completo(so.nombre, so.apellidos) as solicitante_nombre,
         d.nombre as departamento_nombre,
         s.nombre as sucursal_nombre,
         interno.nombre_completo(ap.nombre, ap.apellidos) as aprobador_nombre,
         interno.nombre_completo(apr.nombre, apr.apellidos) as aprobado_por_nombre,
         coalesce(
           (select interno.rol_actual()) in ('aprobador', 'administrador')
           and g.solicitante_id <> (select auth.uid())
           and g.creado_por_id is distinct from (select auth.uid())
           and g.editado_por_id is distinct from (select auth.uid())
           and ((select interno.rol_actual()) = 'administrador'
                or g.aprobador_id = (select auth.uid())
                or g.solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])),
           false) as puede_aprobar,
         (select count(*)::integer from public.justificantes j where j.gasto_id = g.id) as justificantes,
         coalesce(p.nif, g.emisor_nif) as emisor_nif_efectivo,
         coalesce(interno.nombre_proveedor(p.razon_social, p.nombre_comercial), g.emisor_nombre) as emisor_nombre_efectivo,
         case when g.proveedor_id is not null then p.pais else g.emisor_pais end as emisor_pais_efectivo,
         (interno.deducibilidad(g)).importe as iva_deducible,
         (interno.deducibilidad(g)).motivo as iva_motivo,
         (interno.deducibilidad(g)).porcentaje as iva_porcentaje_deducible,
         -- El folio de la remesa viva (generada o confirmada) en la que está; solo lo ven los
         -- administradores (RLS de remesa_gastos).
         (select r.folio from public.remesa_gastos rg join public.remesas r on r.id = rg.remesa_id
           where rg.gasto_id = g.id and rg.viva) as en_remesa,
         interno.titulo_viaje_de(g.viaje_id) as viaje_titulo,
         (interno.irpf(g)).exento as exento_irpf,
         (interno.irpf(g)).sujeto as sujeto_irpf,
         (interno.irpf(g)).explicacion as irpf_explicacion
  from public.gastos g
  left join public.proveedores p on p.id = g.proveedor_id
  left join public.usuarios so on so.id = g.solicitante_id
  left join public.departamentos d on d.id = g.departamento_id
  left join public.sucursales s on s.id = g.sucursal_id
  left join public.usuarios ap on ap.id = g.aprobador_id
  left join public.usuarios apr on apr.id = g.aprobado_por_id;
  revoke all on public.gastos_vista from public, anon, authenticated;
  grant select on public.gastos_vista to authenticated, service_role;

  create view public.libro_facturas_recibidas with (security_invoker = true) as
  select g.id as gasto_id,
         g.folio,
         g.numero_recepcion,
         g.fecha_expedicion,
         g.fecha_gasto as fecha_operacion,
         g.numero_factura,
         g.tipo_documento,
         g.emisor_nif_efectivo as emisor_nif,
         g.emisor_pais_efectivo as pais_expedidor,
         -- El libro lleva la razón social (no el nombre comercial con el que se le conoce).
         coalesce(p.razon_social, g.emisor_nombre) as emisor_nombre,
         g.categoria,
         g.estado,
         l.orden::integer as linea,
         l.value ->> 'tipo' as tipo_iva,
         interno.porcentaje_iva(l.value ->> 'tipo', g.fecha_expedicion) as porcentaje,
         (l.value ->> 'base')::numeric(14, 2) as base_imponible,
         (l.value ->> 'cuota')::numeric(14, 2) as cuota_soportada,
         round((l.value ->> 'cuota')::numeric * g.iva_porcentaje_deducible / 100, 2)::numeric(14, 2) as cuota_deducible,
         case when l.orden = 1 then g.otros_no_sujetos else 0 end::numeric(14, 2) as otros_no_sujetos,
         -- Lo que dice la factura: con inversión del sujeto pasivo, sin la cuota (la declara la empresa).
         ((l.value ->> 'base')::numeric
           + case when g.inversion_sujeto_pasivo then 0 else (l.value ->> 'cuota')::numeric end
           + case when l.orden = 1 then g.otros_no_sujetos else 0 end)::numeric(14, 2) as total,
         g.inversion_sujeto_pasivo,
         g.iva_motivo,
         g.id::text || ':' || l.orden as id
    from public.gastos_vista g
    left join public.proveedores p on p.id = g.proveedor_id
   cross join lateral jsonb_array_elements(g.desglose_iva) with ordinality as l(value, orden)
   where g.estado in ('aprobado', 'pagado');
  revoke all on public.libro_facturas_recibidas from public, anon, authenticated;
  grant select on public.libro_facturas_recibidas to authenticated, service_role;

  -- estado: el del viaje según sus gastos (los que ve quien pregunta): sin gastos, con
  -- borradores, pendiente, con rechazados, aprobado o pagado.
  create view public.viajes_vista with (security_invoker = true) as
  select v.*,
         interno.titulo_viaje(v.destino_municipio, v.destino_pais, v.salida) as titulo,
         interno.nombre_completo(u.nombre, u.apellidos) as solicitante_nombre,
         coalesce(t.num_gastos, 0) as num_gastos,
         coalesce(t.borradores, 0) as borradores,
         coalesce(t.pendientes, 0) as pendientes,
         coalesce(t.importe_total, 0)::numeric(14, 2) as importe_total,
         coalesce(t.exento_total, 0)::numeric(14, 2) as exento_total,
         coalesce(t.sujeto_total, 0)::numeric(14, 2) as sujeto_total,
         coalesce(t.puede_aprobar, false) as puede_aprobar,
         case when coalesce(t.num_gastos, 0) = 0 then 'sin_gastos'
              when t.borradores > 0 then 'borrador'
              when t.pendientes > 0 then 'pendiente'
              when t.rechazados > 0 then 'rechazado'
              when t.pagados = t.num_gastos then 'pagado'
              else 'aprobado' end as estado,
         -- Con gastos enviados, aprobados o pagados: sus fechas, su destino y lo que decide la
         -- exención ya no cambian (interno.viajes_validar), ni se elimina.
         coalesce(t.num_gastos - t.borradores - t.rechazados > 0, false) as datos_fijos
    from public.viajes v
    left join public.usuarios u on u.id = v.solicitante_id
    left join lateral (
      select count(*)::integer as num_gastos,
             (count(*) filter (where g.estado = 'borrador'))::integer as borradores,
             (count(*) filter (where g.estado = 'pendiente'))::integer as pendientes,
             (count(*) filter (where g.estado = 'rechazado'))::integer as rechazados,
             (count(*) filter (where g.estado = 'pagado'))::integer as pagados,
             sum(g.importe) as importe_total,
             sum(g.exento_irpf) as exento_total,
             sum(g.sujeto_irpf) as sujeto_total,
             bool_or(g.estado = 'pendiente' and g.puede_aprobar) as puede_aprobar
        from public.gastos_vista g
       where g.viaje_id = v.id
    ) t on true;
  revoke all on public.viajes_vista from public, anon, authenticated;
  grant select on public.viajes_vista to authenticated, service_role;

  -- Para nóminas y el modelo 190: cada kilometraje o dieta aprobado o pagado, con su parte
  -- exenta y la sujeta (se suman por persona y periodo en la aplicación, en céntimos), y el NIF
  -- de quien lo cobra, de sus datos bancarios (que solo leen la persona y un administrador).
  create view public.informe_irpf with (security_invoker = true) as
  select g.id, g.folio, g.solicitante_id, g.solicitante_nombre, so.email as solicitante_email,
         db.nif as solicitante_nif,
         g.fecha_gasto, g.clase, g.estado, g.viaje_id, g.viaje_titulo, g.descripcion,
         g.importe, g.exento_irpf, g.sujeto_irpf, g.irpf_explicacion
    from public.gastos_vista g
    left join public.usuarios so on so.id = g.solicitante_id
    left join public.datos_bancarios db on db.usuario_id = g.solicitante_id
   where g.clase in ('kilometraje', 'dieta') and g.estado in ('aprobado', 'pagado');
  revoke all on public.informe_irpf from public, anon, authenticated;
  grant select on public.informe_irpf to authenticated, service_role;
end
$fn$;
revoke all on function interno.crear_gastos_vista() from public, anon, authenticated;

create view public.historial_vista with (security_invoker = true) as
select h.*,
       interno.nombre_completo(u.nombre, u.apellidos) as actor_nombre
from public.historial h
left join public.usuarios u on u.id = h.actor_id;

revoke all on public.historial_vista from public, anon, authenticated;
grant select on public.historial_vista to authenticated, service_role;
