-- Oficina: un solo nombre para cada proveedor en todas partes (issue 18). La lista y la ficha de
-- gastos decían el nombre comercial y los filtros, los selectores y el historial la razón social:
-- el mismo proveedor con dos nombres. Ahora, en todas partes, «Nombre comercial (Razón social)»
-- si tiene un nombre comercial distinto de su razón social, y si no la razón social: se reconoce
-- por el nombre de la calle y se identifica por el legal.

create function interno.nombre_proveedor(p_razon_social text, p_nombre_comercial text) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when nullif(btrim(p_nombre_comercial), '') is null
         or lower(btrim(p_nombre_comercial)) = lower(btrim(p_razon_social)) then p_razon_social
    else btrim(p_nombre_comercial) || ' (' || p_razon_social || ')'
  end
$$;
revoke execute on function interno.nombre_proveedor(text, text) from public, anon;
grant execute on function interno.nombre_proveedor(text, text) to authenticated, service_role;

-- Las opciones de los selectores y filtros de proveedor leen `nombre` de aquí (app/entities/proveedores.ts).
create or replace view public.proveedores_vista with (security_invoker = true) as
select p.*, interno.nombre_proveedor(p.razon_social, p.nombre_comercial) as nombre
from public.proveedores p;

create or replace view public.gastos_vista with (security_invoker = true) as
select g.*,
       interno.nombre_proveedor(p.razon_social, p.nombre_comercial) as proveedor_nombre,
       nullif(btrim(concat_ws(' ', so.nombre, so.apellidos)), '') as solicitante_nombre,
       d.nombre as departamento_nombre,
       s.nombre as sucursal_nombre,
       nullif(btrim(concat_ws(' ', ap.nombre, ap.apellidos)), '') as aprobador_nombre,
       nullif(btrim(concat_ws(' ', apr.nombre, apr.apellidos)), '') as aprobado_por_nombre,
       coalesce(
         (select interno.rol_actual()) in ('aprobador', 'administrador')
         and g.solicitante_id <> (select auth.uid())
         and g.creado_por_id is distinct from (select auth.uid())
         and g.editado_por_id is distinct from (select auth.uid())
         and ((select interno.rol_actual()) = 'administrador'
              or g.aprobador_id = (select auth.uid())
              or g.solicitante_id = any ((select interno.solicitantes_a_cargo())::uuid[])),
         false) as puede_aprobar
from public.gastos g
left join public.proveedores p on p.id = g.proveedor_id
left join public.usuarios so on so.id = g.solicitante_id
left join public.departamentos d on d.id = g.departamento_id
left join public.sucursales s on s.id = g.sucursal_id
left join public.usuarios ap on ap.id = g.aprobador_id
left join public.usuarios apr on apr.id = g.aprobado_por_id;

-- El panel del administrador (proveedores de los últimos 90 días), igual que en
-- 20261125000006_panel.sql salvo el nombre del proveedor.
create or replace function public.panel(p_hoy date) returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_rol text := (select interno.rol_actual());
  v_hoy date := coalesce(p_hoy, current_date);
  v_mes date;
  v_siguiente date;
  v_inicio_12 date;
  v_inicio_90 date;
  v_solicitantes uuid[];
  v_resultado jsonb;
  v_seccion jsonb;
begin
  if v_rol is null then
    raise exception using errcode = 'OFPRM', detail = '',
      message = 'Su usuario no está activo o la sesión no es válida.';
  end if;
  v_mes := date_trunc('month', v_hoy)::date;
  v_siguiente := (v_mes + interval '1 month')::date;
  v_inicio_12 := (v_mes - interval '11 months')::date;
  v_inicio_90 := v_hoy - 89;

  v_resultado := jsonb_build_object(
    'rol', v_rol,
    'hoy', v_hoy,
    'mes', jsonb_build_object('desde', v_mes, 'hasta', v_siguiente - 1));

  -- Para todos: los propios por estado, los de este mes y los cinco últimos.
  select coalesce(jsonb_agg(jsonb_build_object(
           'estado', e.estado,
           'cuenta', coalesce(t.cuenta, 0),
           'importe', coalesce(t.importe, 0.00)::text) order by e.orden), '[]'::jsonb)
    into v_seccion
    from unnest(array['borrador', 'pendiente', 'aprobado', 'rechazado', 'pagado']) with ordinality as e (estado, orden)
    left join (
      select g.estado, count(*) as cuenta, sum(g.importe) as importe
        from public.gastos g
       where g.solicitante_id = v_uid
       group by g.estado
    ) t on t.estado = e.estado;
  v_resultado := v_resultado || jsonb_build_object('propios', v_seccion);

  select jsonb_build_object('cuenta', count(*), 'importe', coalesce(sum(g.importe), 0.00)::text)
    into v_seccion
    from public.gastos g
   where g.solicitante_id = v_uid
     and g.fecha_gasto >= v_mes and g.fecha_gasto < v_siguiente;
  v_resultado := v_resultado || jsonb_build_object('este_mes', v_seccion);

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', u.id, 'folio', u.folio, 'fecha_gasto', u.fecha_gasto, 'descripcion', u.descripcion,
           'importe', u.importe::text, 'estado', u.estado) order by u.fecha_gasto desc, u.creado_en desc, u.id), '[]'::jsonb)
    into v_seccion
    from (
      select g.id, g.folio, g.fecha_gasto, g.descripcion, g.importe, g.estado, g.creado_en
        from public.gastos g
       where g.solicitante_id = v_uid
       order by g.fecha_gasto desc, g.creado_en desc, g.id
       limit 5
    ) u;
  v_resultado := v_resultado || jsonb_build_object('ultimos', v_seccion);

  -- Aprobador y administrador: lo que puede aprobar (interno.motivo_no_aprueba, escrito para que
  -- use el índice de pendientes); la política gastos_select se aplica además, como a toda consulta.
  if v_rol in ('aprobador', 'administrador') then
    v_solicitantes := (select interno.solicitantes_a_cargo());
    select jsonb_build_object('cuenta', count(*), 'importe', coalesce(sum(g.importe), 0.00)::text)
      into v_seccion
      from public.gastos g
     where g.estado = 'pendiente'
       and g.solicitante_id <> v_uid
       and g.creado_por_id is distinct from v_uid and g.editado_por_id is distinct from v_uid
       and (v_rol = 'administrador' or g.aprobador_id = v_uid or g.solicitante_id = any (v_solicitantes));
    v_seccion := v_seccion || jsonb_build_object('mas_antiguos', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'id', a.id, 'folio', a.folio, 'fecha_gasto', a.fecha_gasto,
               'descripcion', a.descripcion, 'importe', a.importe::text,
               'solicitante_nombre', nullif(btrim(concat_ws(' ', s.nombre, s.apellidos)), ''))
               order by a.fecha_gasto, a.creado_en, a.id), '[]'::jsonb)
        from (
          select g.id, g.folio, g.fecha_gasto, g.creado_en, g.descripcion, g.importe, g.solicitante_id
            from public.gastos g
           where g.estado = 'pendiente'
             and g.solicitante_id <> v_uid
             and g.creado_por_id is distinct from v_uid and g.editado_por_id is distinct from v_uid
             and (v_rol = 'administrador' or g.aprobador_id = v_uid or g.solicitante_id = any (v_solicitantes))
           order by g.fecha_gasto, g.creado_en, g.id
           limit 10
        ) a
        left join public.usuarios s on s.id = a.solicitante_id));
    v_resultado := v_resultado || jsonb_build_object('pendientes', v_seccion);
  else
    v_resultado := v_resultado || jsonb_build_object('pendientes', null);
  end if;

  -- Administrador: lo aprobado (aprobado + pagado) del mes por departamento frente a su
  -- presupuesto, los últimos 12 meses y las categorías y proveedores de los últimos 90 días, de
  -- interno.gastos_aprobados_totales (su política: solo administradores).
  if v_rol <> 'administrador' then
    return v_resultado || jsonb_build_object(
      'presupuestos', null, 'meses', null, 'noventa_dias', null, 'categorias', null, 'proveedores', null);
  end if;

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', d.id, 'nombre', d.nombre,
           'presupuesto', d.presupuesto_mensual::text,
           'aprobado', coalesce(t.importe, 0.00)::text,
           'cuenta', coalesce(t.cuenta, 0),
           'excedido', coalesce(t.importe > d.presupuesto_mensual, false))
           order by d.nombre, d.id), '[]'::jsonb)
    into v_seccion
    from public.departamentos d
    left join interno.gastos_aprobados_totales t
      on t.tipo = 'departamento' and t.fecha = v_mes and t.clave = d.id::text and t.cuenta > 0
   where d.activo or t.cuenta is not null;
  v_resultado := v_resultado || jsonb_build_object('presupuestos', v_seccion);

  select jsonb_agg(jsonb_build_object(
           'mes', to_char(m.mes, 'YYYY-MM'),
           'cuenta', coalesce(t.cuenta, 0),
           'importe', coalesce(t.importe, 0.00)::text) order by m.mes)
    into v_seccion
    from (select (v_inicio_12 + make_interval(months => n))::date as mes from generate_series(0, 11) as n) m
    left join (
      select t.fecha, sum(t.cuenta) as cuenta, sum(t.importe) as importe
        from interno.gastos_aprobados_totales t
       where t.tipo = 'departamento' and t.fecha >= v_inicio_12 and t.fecha <= v_mes
       group by t.fecha
    ) t on t.fecha = m.mes;
  v_resultado := v_resultado || jsonb_build_object('meses', v_seccion);

  v_resultado := v_resultado || jsonb_build_object(
    'noventa_dias', jsonb_build_object('desde', v_inicio_90, 'hasta', v_hoy));

  select coalesce(jsonb_agg(jsonb_build_object(
           'categoria', c.clave, 'cuenta', c.cuenta, 'importe', c.importe::text)
           order by c.importe desc, c.clave), '[]'::jsonb)
    into v_seccion
    from (
      select t.clave, sum(t.cuenta) as cuenta, sum(t.importe) as importe
        from interno.gastos_aprobados_totales t
       where t.tipo = 'categoria' and t.fecha >= v_inicio_90 and t.fecha <= v_hoy
       group by t.clave
      having sum(t.cuenta) > 0
       order by importe desc, t.clave
       limit 8
    ) c;
  v_resultado := v_resultado || jsonb_build_object('categorias', v_seccion);

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', p.id,
           'nombre', interno.nombre_proveedor(p.razon_social, p.nombre_comercial),
           'cuenta', c.cuenta, 'importe', c.importe::text)
           order by c.importe desc, c.clave), '[]'::jsonb)
    into v_seccion
    from (
      select t.clave, sum(t.cuenta) as cuenta, sum(t.importe) as importe
        from interno.gastos_aprobados_totales t
       where t.tipo = 'proveedor' and t.fecha >= v_inicio_90 and t.fecha <= v_hoy
       group by t.clave
      having sum(t.cuenta) > 0
       order by importe desc, t.clave
       limit 8
    ) c
    join public.proveedores p on p.id = c.clave::uuid;
  v_resultado := v_resultado || jsonb_build_object('proveedores', v_seccion);

  return v_resultado;
end
$$;
