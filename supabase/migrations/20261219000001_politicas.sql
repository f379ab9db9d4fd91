-- Políticas de gasto: límites por categoría (y, si se quiere, por departamento) que no impiden
-- gastar, sino que piden un motivo. Un gasto que se sale de su política se envía igualmente con
-- un motivo, y quien lo aprueba ve el incumplimiento y el motivo antes de aprobar (panel y paso de
-- confirmación en bloque). La comprobación vive aquí, en enviar_gasto: los dos backends y todos
-- los caminos (formulario, en bloque, un viaje entero) la aplican.

-- ---------------------------------------------------------------------------------------------
-- Las políticas. La de un departamento sustituye entera, para sus gastos, a la general de la
-- categoría (la que no tiene departamento): no se mezclan límites de las dos.
-- ---------------------------------------------------------------------------------------------
create table public.politicas_gasto (
  id uuid primary key default gen_random_uuid(),
  categoria text not null references public.categorias_fiscales (categoria),
  departamento_id uuid references public.departamentos (id) on delete cascade,
  maximo_por_gasto numeric(12, 2)
    constraint politicas_gasto_maximo_por_gasto_check check (maximo_por_gasto > 0),
  maximo_por_dia numeric(12, 2)
    constraint politicas_gasto_maximo_por_dia_check check (maximo_por_dia > 0),
  maximo_por_mes numeric(12, 2)
    constraint politicas_gasto_maximo_por_mes_check check (maximo_por_mes > 0),
  justificante_desde numeric(12, 2)
    constraint politicas_gasto_justificante_desde_check check (justificante_desde >= 0),
  antiguedad_maxima integer
    constraint politicas_gasto_antiguedad_maxima_check check (antiguedad_maxima between 1 and 3650),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint politicas_gasto_algun_limite_check check (
    num_nonnulls(maximo_por_gasto, maximo_por_dia, maximo_por_mes, justificante_desde, antiguedad_maxima) > 0),
  constraint politicas_gasto_dia_mes_check check (maximo_por_dia is null or maximo_por_mes is null
    or maximo_por_dia <= maximo_por_mes),
  constraint politicas_gasto_categoria_departamento_key unique nulls not distinct (categoria, departamento_id)
);
select interno.tabla_de_administracion('politicas_gasto');
grant insert (categoria, departamento_id, maximo_por_gasto, maximo_por_dia, maximo_por_mes,
              justificante_desde, antiguedad_maxima),
      update (categoria, departamento_id, maximo_por_gasto, maximo_por_dia, maximo_por_mes,
              justificante_desde, antiguedad_maxima),
      delete
  on public.politicas_gasto to authenticated;
create index politicas_gasto_departamento_idx on public.politicas_gasto (departamento_id);

create view public.politicas_gasto_vista with (security_invoker = true) as
select p.*, d.nombre as departamento_nombre
  from public.politicas_gasto p
  left join public.departamentos d on d.id = p.departamento_id;
revoke all on public.politicas_gasto_vista from public, anon, authenticated;
grant select on public.politicas_gasto_vista to authenticated, service_role;

-- Lo que el gasto incumplía al enviarlo (frases) y el motivo de quien lo envió: los escribe solo
-- enviar_gasto (sin privilegio de columna para authenticated), y se borran al volver a enviarlo.
alter table public.gastos
  add column politica_incumplida text[],
  add column motivo_politica text
    constraint gastos_motivo_politica_check check (char_length(motivo_politica) <= 500),
  add column fuera_de_politica boolean not null generated always as (politica_incumplida is not null) stored;

-- ---------------------------------------------------------------------------------------------
-- Qué incumple un gasto, en frases. Como propietario: los totales del día y del mes suman gastos
-- del mismo solicitante que quien envía puede no ver (lo enviado por un administrador en su
-- nombre). Cuentan los pendientes, aprobados y pagados; no los borradores ni los rechazados.
-- ---------------------------------------------------------------------------------------------
create function interno.incumplimientos_politica(g public.gastos) returns text[]
language plpgsql stable security definer
set search_path = ''
as $$
declare
  p public.politicas_gasto;
  v_suma numeric;
  v_dias integer;
  v_meses text[] := array['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio',
                          'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
  v_fuera text[] := '{}';
begin
  select * into p from public.politicas_gasto x
   where x.categoria = g.categoria
     and (x.departamento_id = g.departamento_id or x.departamento_id is null)
   order by x.departamento_id nulls last
   limit 1;
  if not found then
    return v_fuera;
  end if;
  if p.maximo_por_gasto is not null and g.importe > p.maximo_por_gasto then
    v_fuera := v_fuera || (interno.euros(g.importe) || ' € en un gasto; el máximo por gasto es '
      || interno.euros(p.maximo_por_gasto) || ' € (' || interno.euros(g.importe - p.maximo_por_gasto) || ' € más).');
  end if;
  if p.maximo_por_dia is not null then
    select g.importe + coalesce(sum(o.importe), 0) into v_suma from public.gastos o
     where o.solicitante_id = g.solicitante_id and o.categoria = g.categoria and o.fecha_gasto = g.fecha_gasto
       and o.estado in ('pendiente', 'aprobado', 'pagado') and o.id <> g.id;
    if v_suma > p.maximo_por_dia then
      v_fuera := v_fuera || (interno.euros(v_suma) || ' € de esta categoría el ' || to_char(g.fecha_gasto, 'DD/MM/YYYY')
        || ' con este gasto; el máximo por día es ' || interno.euros(p.maximo_por_dia) || ' € ('
        || interno.euros(v_suma - p.maximo_por_dia) || ' € más).');
    end if;
  end if;
  if p.maximo_por_mes is not null then
    select g.importe + coalesce(sum(o.importe), 0) into v_suma from public.gastos o
     where o.solicitante_id = g.solicitante_id and o.categoria = g.categoria
       and o.fecha_gasto >= date_trunc('month', g.fecha_gasto)::date
       and o.fecha_gasto < (date_trunc('month', g.fecha_gasto) + interval '1 month')::date
       and o.estado in ('pendiente', 'aprobado', 'pagado') and o.id <> g.id;
    if v_suma > p.maximo_por_mes then
      v_fuera := v_fuera || (interno.euros(v_suma) || ' € de esta categoría en '
        || v_meses[extract(month from g.fecha_gasto)::integer] || ' de ' || extract(year from g.fecha_gasto)::integer
        || ' con este gasto; el máximo por mes es ' || interno.euros(p.maximo_por_mes) || ' € ('
        || interno.euros(v_suma - p.maximo_por_mes) || ' € más).');
    end if;
  end if;
  if p.justificante_desde is not null and g.importe >= p.justificante_desde
     and not exists (select 1 from public.justificantes j where j.gasto_id = g.id) then
    v_fuera := v_fuera || ('Sin justificante: en esta categoría se pide desde ' || interno.euros(p.justificante_desde) || ' €.');
  end if;
  v_dias := current_date - g.fecha_gasto;
  if p.antiguedad_maxima is not null and v_dias > p.antiguedad_maxima then
    v_fuera := v_fuera || ('El gasto tiene ' || v_dias || ' días; se admiten hasta '
      || p.antiguedad_maxima || ' días desde la fecha del gasto.');
  end if;
  return v_fuera;
end
$$;
revoke all on function interno.incumplimientos_politica(public.gastos) from public, anon, authenticated;

-- Para quien lo va a enviar (el panel avisa y pide el motivo antes de pulsar): solo de un
-- borrador que ve.
create function public.incumplimientos_politica(p_id uuid) returns text[]
language plpgsql stable security definer
set search_path = ''
as $$
declare
  g public.gastos;
begin
  select * into g from public.gastos x where x.id = p_id and x.estado = 'borrador';
  if not found or not interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id, g.estado) then
    return '{}';
  end if;
  return interno.incumplimientos_politica(g);
end
$$;
revoke all on function public.incumplimientos_politica(uuid) from public, anon;
grant execute on function public.incumplimientos_politica(uuid) to authenticated, service_role;


-- ---------------------------------------------------------------------------------------------
-- Antes de aprobar: lo de antes (sin justificante, presupuesto del departamento en euros) y lo
-- que se salía de la política al enviarlo, con el motivo de quien lo envió.
-- ---------------------------------------------------------------------------------------------
create or replace function public.avisos_antes_de_aprobar(p_id uuid) returns text[]
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  g record;
  p record;
  v_meses text[] := array['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio',
                          'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
  v_avisos text[] := '{}';
  v_fuera text;
begin
  select v.id, v.importe, v.departamento_id, v.fecha_gasto, v.justificantes, v.politica_incumplida,
         v.motivo_politica
    into g from public.gastos_vista v
   where v.id = p_id and v.estado = 'pendiente' and v.puede_aprobar;
  if not found then
    return v_avisos;
  end if;
  foreach v_fuera in array coalesce(g.politica_incumplida, '{}') loop
    v_avisos := v_avisos || ('Fuera de la política de gastos: ' || v_fuera);
  end loop;
  if g.motivo_politica is not null then
    v_avisos := v_avisos || ('Motivo de quien lo envía: «' || g.motivo_politica || '».');
  end if;
  if g.justificantes = 0 then
    v_avisos := v_avisos || 'No lleva justificante.'::text;
  end if;
  p := interno.presupuesto_del_mes(g.departamento_id, g.fecha_gasto);
  if p.presupuesto is not null and p.aprobado + g.importe > p.presupuesto then
    v_avisos := v_avisos || (
      'Aprobado, ' || p.nombre || ' pasaría de su presupuesto de '
      || v_meses[extract(month from g.fecha_gasto)::integer] || ' de ' || extract(year from g.fecha_gasto)::integer
      || ' en ' || interno.euros(p.aprobado + g.importe - p.presupuesto) || ' € ('
      || interno.euros(p.aprobado + g.importe) || ' € de ' || interno.euros(p.presupuesto) || ' €).');
  end if;
  return v_avisos;
end
$$;


select interno.crear_gastos_vista();
